//! `host.profile`: a reference simulator's host-stack defaults in one key.
//!
//! A profile is a set of key defaults, applied at every sweep point to the keys the scenario
//! leaves unset; a key given in the file or by `--set` always wins. `fabsim keys` lists what
//! each profile sets. `fabsim` (the default) sets nothing. `fabsim-rto` keeps the loss
//! recovery fabsim had before duplicate-ACK repair and the RFC 6298 timer became the default,
//! so results made before that reproduce.

use super::keys::{named, Key, Named};
use super::{host, link, rate, switch};

named_enum! {
    /// The host stacks of the reference simulators.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Profile {
        /// fabsim's own stack: every key at its default.
        Fabsim => "fabsim",
        /// fabsim's stack before duplicate-ACK recovery and the RFC 6298 timer became its
        /// default: loss repaired only by a fixed timer that resends everything in flight.
        FabsimRto => "fabsim-rto",
        /// UEC htsim (`htsim_uec`): coalesced ACKs, 64 entropies per flow, its NSCC rules.
        Htsim => "htsim",
        /// Netbench's NewReno-based TCP/DCTCP.
        Netbench => "netbench",
        /// HPCC's ns-3 (RoCE NICs): its example configuration's rate-based controllers,
        /// packets, serialization and ECN ramp.
        HpccNs3 => "hpcc-ns3",
    }
}

named!(Profile);

impl Profile {
    /// Where the values it sets come from, as errors name it.
    pub fn source(self) -> &'static str {
        match self {
            Profile::Fabsim => "host.profile \"fabsim\"",
            Profile::FabsimRto => "host.profile \"fabsim-rto\"",
            Profile::Htsim => "host.profile \"htsim\"",
            Profile::Netbench => "host.profile \"netbench\"",
            Profile::HpccNs3 => "host.profile \"hpcc-ns3\"",
        }
    }

    /// The key defaults it sets, as (key, TOML value).
    pub fn settings(self) -> &'static [(&'static Key, &'static str)] {
        match self {
            Profile::Fabsim => &[],
            Profile::FabsimRto => &[
                (host::LOSS_RECOVERY, "\"rto\""),
                (host::RTO, "\"fixed\""),
                (host::DCTCP_FIRST_WINDOW, "\"first-ack\""),
            ],
            // uec.cpp's sink ACKs every 16,384 B (and at once on a mark, a request, the first
            // packet); main_uec.cpp's default of 64 entropies per flow; compositequeue.cpp marks
            // on dequeue by the data queue and trims the arriving packet or the tail; its
            // sources always run a retransmission timer, armed at the oldest unACKed packet's
            // send time plus 15 us and six buffer drains, that resends that packet alone and
            // takes it off the window; main_uec.cpp marks ECN from 20% to 80% of the BDP; its
            // NIC (UecNIC) serves the sources waiting to send first come, first served.
            Profile::Htsim => &[
                (host::ACK_EVERY_BYTES, "16384"),
                (host::PATH_LABELS, "64"),
                (host::NSCC_RULES, "\"htsim\""),
                (host::DCTCP_RULES, "\"htsim\""),
                (host::WINDOW_BYTES, "\"wire\""),
                (switch::TRIM_VICTIM, "\"random\""),
                (switch::ECN_AT, "\"dequeue\""),
                (switch::ECN_DEFAULT, "\"htsim\""),
                (host::RTO_US, "\"htsim\""),
                (host::RTO, "\"fixed\""),
                (host::RTO_TIMER, "\"oldest\""),
                (host::NIC, "\"pull-fifo\""),
            ],
            // NewRenoTcpSocket / NewRenoDctcpSocket defaults: window 3 MSS and ssthresh 30 MSS
            // (Netbench derives both from its TCP_MAX_SEGMENT_SIZE, here the payload), receive
            // window 65,535 B, RTO from 300 us by RFC 6298, fast
            // retransmit on 3 duplicate ACKs, a SYN handshake before the data, sockets that
            // push into the NIC's queue; NewRenoDctcpSocket updates alpha at the first ACK
            // (its alphaUpdateSequenceNumber starts at 0).
            Profile::Netbench => &[
                (host::DCTCP_RULES, "\"netbench\""),
                (host::DCTCP_FIRST_WINDOW, "\"first-ack\""),
                (host::INIT_WINDOW_MSS, "3"),
                (host::SSTHRESH_MSS, "30"),
                (host::MAX_WINDOW_BYTES, "65535"),
                (host::RTO, "\"rfc6298\""),
                (host::RTO_US, "300"),
                (host::LOSS_RECOVERY, "\"dupack\""),
                (host::HANDSHAKE, "true"),
                (host::NIC, "\"fifo\""),
            ],
            // HPCC's ns-3 at its example configuration (mix/config.txt): 1000 B payloads
            // under 48 B of headers (PPP 14, IPv4 20, UDP 8, its sequence header 6), 60 B
            // ACKs; serialization truncated to whole nanoseconds; its ECMP hash; ECN decided at
            // dequeue on
            // a ramp from 400 KB to 1600 KB (KB of 1000 B, its 100 Gb/s entry) up to 0.2;
            // the window scaled by the rate (VAR_WIN); alpha's gain 1/256 for DCQCN and
            // DCTCP alike (EWMA_GAIN). Its NIC serves an ACK before data and round-robins its
            // flows (fabsim's pull NIC); the rate keys' own defaults are its DCQCN ones.
            Profile::HpccNs3 => &[
                (link::PAYLOAD_BYTES, "1000"),
                (link::HEADER_BYTES, "48"),
                (link::ACK_BYTES, "60"),
                (link::SERIALIZATION, "\"floor-ns\""),
                (switch::ECMP_HASH, "\"hpcc-ns3\""),
                (switch::ECN_AT, "\"dequeue\""),
                (switch::ECN_KMIN_BYTES, "400000"),
                (switch::ECN_KMAX_BYTES, "1600000"),
                (switch::ECN_PMAX, "0.2"),
                (rate::RATE_WINDOW, "\"scaled\""),
                (host::DCTCP_G, "0.00390625"),
            ],
        }
    }
}
