use super::*;

const US: Time = Time::from_us(1);

#[test]
fn rfc6298_estimates_backs_off_and_restarts_from_the_next_sample() {
    let r = Rto {
        initial: 300 * US,
        rule: RtoRule::Rfc6298,
        min: 10 * US,
        timer: RtoTimer::Progress,
    };
    let mut e = RttEstimator::new(&r);
    assert_eq!(e.rto(), 300 * US, "before any sample");
    // First sample: SRTT = R, RTTVAR = R / 2, RTO = SRTT + 4 RTTVAR = 3 R.
    e.sample(&r, 20 * US);
    assert_eq!(e.rto(), 60 * US);
    // Second: RTTVAR = 3/4 10 + 1/4 |20 - 28| = 9.5, SRTT = 7/8 20 + 1/8 28 = 21.
    e.sample(&r, 28 * US);
    assert_eq!(e.rto(), Time::from_ns(21_000 + 4 * 9_500));
    // Backoff doubles, up to 64x the estimate.
    for _ in 0..10 {
        e.backoff(&r);
    }
    assert_eq!(e.rto(), Time::from_ns(59_000) * MAX_RTO_BACKOFF);
    // The next sample starts afresh, and the floor holds.
    e.sample(&r, 2 * US);
    assert_eq!(e.rto(), 10 * US);
    // A fixed timer never moves.
    let f = Rto {
        rule: RtoRule::Fixed,
        ..r
    };
    let mut e = RttEstimator::new(&f);
    e.sample(&f, 20 * US);
    e.backoff(&f);
    assert_eq!(e.rto(), 300 * US);
}
