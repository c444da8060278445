//! `host.profile`: a reference simulator's host-stack defaults in one key.
//!
//! A profile is a set of key defaults, applied at every sweep point to the keys the scenario
//! leaves unset; a key given in the file or by `--set` always wins. `fabsim keys` lists what
//! each profile sets. `fabsim` (the default) sets nothing. `fabsim-rto` keeps the loss
//! recovery fabsim had before duplicate-ACK repair and the RFC 6298 timer became the default,
//! so results made before that reproduce.

named_enum! {
    /// The host stacks of the reference simulators.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Profile {
        Fabsim => "fabsim",
        /// fabsim's stack before duplicate-ACK recovery and the RFC 6298 timer became its
        /// default: loss repaired only by a fixed timer that resends everything in flight.
        FabsimRto => "fabsim-rto",
        /// UEC htsim (`htsim_uec`): coalesced ACKs, 64 entropies per flow, its NSCC rules.
        Htsim => "htsim",
        /// Netbench's NewReno-based TCP/DCTCP.
        Netbench => "netbench",
    }
}

impl Profile {
    /// Where the values it sets come from, as errors name it.
    pub fn source(self) -> &'static str {
        match self {
            Profile::Fabsim => "host.profile \"fabsim\"",
            Profile::FabsimRto => "host.profile \"fabsim-rto\"",
            Profile::Htsim => "host.profile \"htsim\"",
            Profile::Netbench => "host.profile \"netbench\"",
        }
    }

    /// The key defaults it sets, as (key, TOML value).
    pub fn settings(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Profile::Fabsim => &[],
            Profile::FabsimRto => &[
                ("host.loss_recovery", "\"rto\""),
                ("host.rto", "\"fixed\""),
                ("host.dctcp_first_window", "\"first-ack\""),
            ],
            // uec.cpp's sink ACKs every 16,384 B (and at once on a mark, a request, the first
            // packet); main_uec.cpp's default of 64 entropies per flow; compositequeue.cpp marks
            // on dequeue by the data queue and trims the arriving packet or the tail; its
            // sources always run a retransmission timer, armed at the oldest unACKed packet's
            // send time plus 15 us and six buffer drains, that resends that packet alone and
            // takes it off the window; main_uec.cpp marks ECN from 20% to 80% of the BDP.
            Profile::Htsim => &[
                ("host.ack_every_bytes", "16384"),
                ("host.path_labels", "64"),
                ("host.nscc_rules", "\"htsim\""),
                ("host.dctcp_rules", "\"htsim\""),
                ("host.window_bytes", "\"wire\""),
                ("switch.trim_victim", "\"random\""),
                ("switch.ecn_at", "\"dequeue\""),
                ("switch.ecn_default", "\"htsim\""),
                ("host.rto_us", "\"htsim\""),
                ("host.rto", "\"fixed\""),
                ("host.rto_timer", "\"oldest\""),
            ],
            // NewRenoTcpSocket / NewRenoDctcpSocket defaults: window 3 MSS and ssthresh 30 MSS
            // (Netbench derives both from its TCP_MAX_SEGMENT_SIZE, here the payload), receive
            // window 65,535 B, RTO from 300 us by RFC 6298, fast
            // retransmit on 3 duplicate ACKs, a SYN handshake before the data, sockets that
            // push into the NIC's queue; NewRenoDctcpSocket updates alpha at the first ACK
            // (its alphaUpdateSequenceNumber starts at 0).
            Profile::Netbench => &[
                ("host.dctcp_rules", "\"netbench\""),
                ("host.dctcp_first_window", "\"first-ack\""),
                ("host.init_window_mss", "3"),
                ("host.ssthresh_mss", "30"),
                ("host.max_window_bytes", "65535"),
                ("host.rto", "\"rfc6298\""),
                ("host.rto_us", "300"),
                ("host.loss_recovery", "\"dupack\""),
                ("host.handshake", "true"),
                ("host.nic", "\"fifo\""),
            ],
        }
    }
}
