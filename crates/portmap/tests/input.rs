//! Bad input is an error with a clear message, never a panic.

use portmap::{solve, Constraints, Error, Mapping, Solver, TrafficMatrix, Workspace};

#[test]
fn csv_parses_with_and_without_header() {
    let tm = TrafficMatrix::from_csv_str("asic0,asic1\n1,2\n3,4\n", Some(2)).unwrap();
    assert_eq!((tm.ports(), tm.asics()), (2, 2));
    assert_eq!(tm.data(), &[1, 2, 3, 4]);
    let tm = TrafficMatrix::from_csv_str("# comment\n\n5 6\n7\t8\r\n9;10\n11, 12\n", None).unwrap();
    assert_eq!(tm.data(), &[5, 6, 7, 8, 9, 10, 11, 12]);
    // A UTF-8 byte-order mark does not turn the first row into a header.
    let tm = TrafficMatrix::from_csv_str("\u{feff}1,2\n3,4\n", None).unwrap();
    assert_eq!(tm.data(), &[1, 2, 3, 4]);
}

/// Issue 48, case 22: only a first row with no numeric cell is a header; one that mixes a
/// number with a bad cell was dropped as a header, and is now an error naming its line and
/// column (the CLI adds the file).
#[test]
fn a_first_row_with_a_number_is_not_a_header() {
    for (text, column, value) in [
        ("1,x\n3,4\n", 2, "x"),
        ("asic0,2\n3,4\n", 1, "asic0"),
        ("7 8 n/a\n1 2 3\n", 3, "n/a"),
    ] {
        let err = TrafficMatrix::from_csv_str(text, None).unwrap_err();
        assert_eq!(
            err,
            Error::Parse {
                line: 1,
                column,
                value: value.into()
            },
            "{text:?}"
        );
    }
    // A wholly non-numeric first row is still a header, also after comments.
    let tm = TrafficMatrix::from_csv_str("# tm\nsrc dst\n1 2\n3 4\n", None).unwrap();
    assert_eq!(tm.data(), &[1, 2, 3, 4]);
}

#[test]
fn csv_negative_entry_is_parse_error() {
    let err = TrafficMatrix::from_csv_str("1,2\n3,-4\n", Some(2)).unwrap_err();
    assert_eq!(
        err,
        Error::Parse {
            line: 2,
            column: 2,
            value: "-4".into()
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains("line 2") && msg.contains("column 2") && msg.contains("-4"),
        "{msg}"
    );
    // A negative number on the first line is not mistaken for a header.
    assert!(matches!(
        TrafficMatrix::from_csv_str("-1,2\n3,4\n", None),
        Err(Error::Parse { line: 1, .. })
    ));
    for bad in ["1.5,2\n", "1,2x\n1,2\n", "99999999999999999999,1\n"] {
        assert!(
            matches!(
                TrafficMatrix::from_csv_str(bad, None),
                Err(Error::Parse { .. })
            ),
            "{bad}"
        );
    }
}

#[test]
fn csv_shape_errors() {
    assert!(matches!(
        TrafficMatrix::from_csv_str("1,2\n3\n", None),
        Err(Error::RowLength {
            row: 1,
            expected: 2,
            got: 1
        })
    ));
    assert!(matches!(
        TrafficMatrix::from_csv_str("1,2,3\n4,5,6\n", Some(2)),
        Err(Error::RowLength {
            expected: 2,
            got: 3,
            ..
        })
    ));
    assert_eq!(
        TrafficMatrix::from_csv_str("a,b\n", None),
        Err(Error::Empty)
    );
    assert_eq!(TrafficMatrix::from_csv_str("", None), Err(Error::Empty));
    // 3 ports on 2 ASICs.
    let err = TrafficMatrix::from_csv_str("1,2\n3,4\n5,6\n", Some(2)).unwrap_err();
    assert!(matches!(
        err,
        Error::NotDivisible {
            field: "ports",
            value: 3,
            divisor: 2,
            ..
        }
    ));
    assert!(
        err.to_string()
            .contains("`ports` = 3 must be a multiple of 2"),
        "{err}"
    );
}

#[test]
fn constructor_errors() {
    assert_eq!(
        TrafficMatrix::new(4, 0, vec![]),
        Err(Error::Zero { field: "asics" })
    );
    assert_eq!(
        TrafficMatrix::new(0, 2, vec![]),
        Err(Error::Zero { field: "ports" })
    );
    assert_eq!(
        TrafficMatrix::new(4, 2, vec![0; 7]),
        Err(Error::Shape {
            field: "data",
            expected: 8,
            got: 7
        })
    );
    assert!(matches!(
        TrafficMatrix::new(2, 2, vec![u64::MAX, 1, 0, 0]),
        Err(Error::TooLarge { .. })
    ));
    let max = portmap::MAX_TOTAL_BYTES;
    assert!(TrafficMatrix::new(2, 2, vec![max, 0, 0, 0]).is_ok());
    assert!(matches!(
        TrafficMatrix::new(2, 2, vec![max, 1, 0, 0]),
        Err(Error::TooLarge { .. })
    ));
    assert!(matches!(
        TrafficMatrix::from_rows(&[vec![1, 2], vec![3]]),
        Err(Error::RowLength { row: 1, .. })
    ));
    assert_eq!(TrafficMatrix::from_rows(&[]), Err(Error::Empty));
}

#[test]
fn constraint_errors() {
    let tm = TrafficMatrix::new(12, 2, vec![1; 24]).unwrap();
    let mut ws = Workspace::new();
    let mut out = Vec::new();
    let mut check = |bundle, circuit_switches| {
        let c = Constraints {
            bundle,
            circuit_switches,
        };
        solve(tm.view(), &c, Solver::Exact, &mut ws, &mut out)
    };
    assert_eq!(check(0, 1), Err(Error::Zero { field: "bundle" }));
    assert_eq!(
        check(1, 0),
        Err(Error::Zero {
            field: "circuit_switches"
        })
    );
    let err = check(5, 1).unwrap_err();
    assert!(err.to_string().contains("bundle size"), "{err}");
    assert!(matches!(
        check(1, 5),
        Err(Error::NotDivisible { divisor: 5, .. })
    ));
    // 12 ports, bundles of 4 -> 3 bundles cannot be split over 2 ASICs.
    assert!(matches!(
        check(4, 1),
        Err(Error::NotDivisible { divisor: 8, .. })
    ));
    assert!(matches!(
        check(usize::MAX, 1),
        Err(Error::NotDivisible { .. })
    ));
    assert!(matches!(check(2, 3), Ok(())));
    assert!(matches!(check(3, 2), Ok(())));
}

#[test]
fn mapping_validation() {
    let m = Mapping::from_vec(vec![0, 0, 1, 2]);
    assert!(matches!(m.validate(4, 2), Err(Error::InvalidMapping(_))));
    let m = Mapping::from_vec(vec![0, 0, 0, 1]);
    assert!(m
        .validate(4, 2)
        .unwrap_err()
        .to_string()
        .contains("ASIC 0 has 3 ports"));
    assert!(matches!(
        Mapping::from_vec(vec![0]).validate(4, 2),
        Err(Error::Shape { .. })
    ));
    assert_eq!(
        Mapping::identity(6, 3).unwrap().as_slice(),
        &[0, 0, 1, 1, 2, 2]
    );
    assert!(Mapping::identity(5, 3).is_err());
}

#[test]
fn too_many_asics_is_an_error() {
    let tm = TrafficMatrix::new(256, 256, vec![0; 256 * 256]).unwrap();
    let mut out = Vec::new();
    let r = solve(
        tm.view(),
        &Constraints::default(),
        Solver::Greedy,
        &mut Workspace::new(),
        &mut out,
    );
    assert!(matches!(r, Err(Error::TooMany { field: "asics", .. })));
}
