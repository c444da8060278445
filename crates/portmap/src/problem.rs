//! The port-to-ASIC mapping problem (paper section 4.1, eq. 1-2): traffic
//! matrices, mappings, their cost, and input validation.

use std::fmt;

/// Largest total traffic (sum of all entries) a [`TrafficMatrix`] may hold.
///
/// Keeping the total at most 2^52 (4.5 PB, far above what a switch forwards
/// in a reconfiguration interval, or in a second) lets every solver do its
/// arithmetic in `i64` with room to spare: net gains, costs of paths and
/// cycles of up to 255 moves (at most 255 * 2^52 < 2^60, below the solvers'
/// "infinity" of 2^61), and Hungarian potentials.
pub const MAX_TOTAL_BYTES: u64 = 1 << 52;

/// Everything that can be wrong with the input of a mapping problem.
///
/// Every variant names the offending field and, where it makes sense, the
/// values that would have been accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A count (`ports`, `asics`, `bundle`, `circuit_switches`) is zero.
    Zero { field: &'static str },
    /// The number of entries does not match `rows x cols`.
    Shape {
        field: &'static str,
        expected: usize,
        got: usize,
    },
    /// Data row `row` (0-based; displayed 1-based) of a CSV or nested-vector
    /// matrix has the wrong number of columns.
    RowLength {
        row: usize,
        expected: usize,
        got: usize,
    },
    /// `field` (with value `value`) must be a multiple of `divisor`
    /// (`divisor_desc` says what the divisor is made of).
    NotDivisible {
        field: &'static str,
        value: usize,
        divisor: usize,
        divisor_desc: String,
    },
    /// The sum of all entries exceeds [`MAX_TOTAL_BYTES`].
    TooLarge { total: u128 },
    /// A CSV cell is not a non-negative integer byte count.
    Parse {
        line: usize,
        column: usize,
        value: String,
    },
    /// `field` = `got` exceeds the supported maximum `max`.
    TooMany {
        field: &'static str,
        max: usize,
        got: usize,
    },
    /// The CSV contains no data rows.
    Empty,
    /// A mapping assigns a port to a non-existent ASIC or breaks the
    /// `ports / asics` ports-per-ASIC balance.
    InvalidMapping(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Zero { field } => write!(f, "`{field}` must be at least 1 (got 0)"),
            Error::Shape {
                field,
                expected,
                got,
            } => write!(f, "`{field}` must have exactly {expected} entries (got {got})"),
            Error::RowLength { row, expected, got } => write!(
                f,
                "data row {} must have exactly {expected} columns, one per ASIC (got {got})",
                row + 1
            ),
            Error::NotDivisible {
                field,
                value,
                divisor,
                divisor_desc,
            } => write!(
                f,
                "`{field}` = {value} must be a multiple of {divisor} ({divisor_desc})"
            ),
            Error::TooLarge { total } => write!(
                f,
                "the traffic matrix total ({total} bytes) must be at most {MAX_TOTAL_BYTES} bytes"
            ),
            Error::Parse {
                line,
                column,
                value,
            } => write!(
                f,
                "line {line}, column {column}: `{value}` is not a byte count (allowed: integers 0..={})",
                u64::MAX
            ),
            Error::TooMany { field, max, got } => {
                write!(f, "`{field}` = {got} is too large (allowed: 1..={max})")
            }
            Error::Empty => write!(f, "the traffic matrix has no data rows (need one row per port)"),
            Error::InvalidMapping(msg) => write!(f, "invalid mapping: {msg}"),
        }
    }
}

impl std::error::Error for Error {}

/// A borrowed `ports x asics` traffic matrix, row-major.
///
/// `data[i * asics + j]` is the number of bytes that entered ingress port
/// `i` and left through an egress port of ASIC `j`. The solvers work on
/// views so that sub-problems (bundles, circuit switches) need no copies of
/// the caller's matrix.
#[derive(Debug, Clone, Copy)]
pub struct TmView<'a> {
    pub(crate) ports: usize,
    pub(crate) asics: usize,
    pub(crate) data: &'a [u64],
}

impl<'a> TmView<'a> {
    /// Borrows `data` (row-major, `ports x asics`) as a matrix, with the same
    /// checks as [`TrafficMatrix::new`] but without copying: the simulator's
    /// controller solves its live counters every interval.
    pub fn new(ports: usize, asics: usize, data: &'a [u64]) -> Result<Self, Error> {
        check_dims(ports, asics)?;
        if Some(data.len()) != ports.checked_mul(asics) {
            return Err(Error::Shape {
                field: "data",
                expected: ports.saturating_mul(asics),
                got: data.len(),
            });
        }
        let total: u128 = data.iter().map(|&x| x as u128).sum();
        if total > MAX_TOTAL_BYTES as u128 {
            return Err(Error::TooLarge { total });
        }
        Ok(Self { ports, asics, data })
    }

    /// Number of ingress ports (rows).
    pub fn ports(&self) -> usize {
        self.ports
    }
    /// Number of ASICs (columns).
    pub fn asics(&self) -> usize {
        self.asics
    }
    /// Ports each ASIC must receive (`ports / asics`).
    pub fn capacity(&self) -> usize {
        self.ports / self.asics
    }
    /// Row of port `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &'a [u64] {
        &self.data[i * self.asics..(i + 1) * self.asics]
    }
    /// Bytes from port `i` to ASIC `j`.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> u64 {
        self.data[i * self.asics + j]
    }
    /// The whole matrix, row-major.
    pub fn data(&self) -> &'a [u64] {
        self.data
    }
}

/// An owned, validated `ports x asics` traffic matrix (paper: `TM`).
///
/// Invariants: `asics >= 1`, `ports >= 1`, `ports % asics == 0`, and the
/// total is at most [`MAX_TOTAL_BYTES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrafficMatrix {
    ports: usize,
    asics: usize,
    data: Vec<u64>,
}

fn check_dims(ports: usize, asics: usize) -> Result<(), Error> {
    if asics == 0 {
        return Err(Error::Zero { field: "asics" });
    }
    if ports == 0 {
        return Err(Error::Zero { field: "ports" });
    }
    if !ports.is_multiple_of(asics) {
        return Err(Error::NotDivisible {
            field: "ports",
            value: ports,
            divisor: asics,
            divisor_desc: "the number of ASICs, so every ASIC gets the same number of ports".into(),
        });
    }
    Ok(())
}

impl TrafficMatrix {
    /// Builds a matrix from row-major data (`ports * asics` entries).
    pub fn new(ports: usize, asics: usize, data: Vec<u64>) -> Result<Self, Error> {
        check_dims(ports, asics)?;
        let expected = ports.checked_mul(asics).ok_or(Error::Shape {
            field: "data",
            expected: usize::MAX,
            got: data.len(),
        })?;
        if data.len() != expected {
            return Err(Error::Shape {
                field: "data",
                expected,
                got: data.len(),
            });
        }
        let total: u128 = data.iter().map(|&x| x as u128).sum();
        if total > MAX_TOTAL_BYTES as u128 {
            return Err(Error::TooLarge { total });
        }
        Ok(Self { ports, asics, data })
    }

    /// Builds a matrix from one row per port, one column per ASIC.
    pub fn from_rows(rows: &[Vec<u64>]) -> Result<Self, Error> {
        let asics = rows.first().map(Vec::len).ok_or(Error::Empty)?;
        let mut data = Vec::with_capacity(rows.len() * asics);
        for (r, row) in rows.iter().enumerate() {
            if row.len() != asics {
                return Err(Error::RowLength {
                    row: r,
                    expected: asics,
                    got: row.len(),
                });
            }
            data.extend_from_slice(row);
        }
        Self::new(rows.len(), asics, data)
    }

    /// Parses a CSV traffic matrix: one line per ingress port, one column per
    /// ASIC, each cell a non-negative integer byte count.
    ///
    /// Separators may be commas, semicolons, tabs or spaces. Blank lines and
    /// lines starting with `#` are ignored. The first non-blank line may be a
    /// header if it contains a non-numeric cell. If `asics` is given, the
    /// number of columns must equal it. Negative numbers, fractions and other
    /// text are reported as [`Error::Parse`] with line and column (1-based).
    pub fn from_csv_str(text: &str, asics: Option<usize>) -> Result<Self, Error> {
        let mut rows: Vec<Vec<u64>> = Vec::new();
        let mut seen_first = false;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (lineno, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let cells: Vec<&str> = line
                .split([',', ';', '\t', ' '])
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect();
            let is_first = !seen_first;
            seen_first = true;
            // A header is a first line none of whose cells even looks like a number (a
            // sign or digit start marks a number); a first line that mixes them is a row
            // with a bad cell, reported by line and column.
            if is_first
                && cells.iter().all(|c| {
                    !c.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-' || ch == '+')
                })
            {
                continue;
            }
            let mut row = Vec::with_capacity(cells.len());
            for (col, cell) in cells.iter().enumerate() {
                let v = cell.parse::<u64>().map_err(|_| Error::Parse {
                    line: lineno + 1,
                    column: col + 1,
                    value: (*cell).to_string(),
                })?;
                row.push(v);
            }
            rows.push(row);
        }
        if rows.is_empty() {
            return Err(Error::Empty);
        }
        if let Some(n) = asics {
            if n == 0 {
                return Err(Error::Zero { field: "asics" });
            }
            if rows[0].len() != n {
                return Err(Error::RowLength {
                    row: 0,
                    expected: n,
                    got: rows[0].len(),
                });
            }
        }
        Self::from_rows(&rows)
    }

    /// Number of ingress ports (rows).
    pub fn ports(&self) -> usize {
        self.ports
    }
    /// Number of ASICs (columns).
    pub fn asics(&self) -> usize {
        self.asics
    }
    /// Bytes from port `i` to ASIC `j`.
    pub fn get(&self, i: usize, j: usize) -> u64 {
        self.data[i * self.asics + j]
    }
    /// Row of port `i`.
    pub fn row(&self, i: usize) -> &[u64] {
        self.view().row(i)
    }
    /// The whole matrix, row-major.
    pub fn data(&self) -> &[u64] {
        &self.data
    }
    /// A borrowed view for the solvers.
    pub fn view(&self) -> TmView<'_> {
        TmView {
            ports: self.ports,
            asics: self.asics,
            data: &self.data,
        }
    }
    /// Total bytes.
    pub fn total_bytes(&self) -> u64 {
        self.data.iter().sum()
    }
}

/// An ingress port-to-ASIC mapping: `asic_of(i)` is the ASIC of port `i`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Mapping {
    pub(crate) asic: Vec<usize>,
}

impl Mapping {
    /// Wraps a vector of ASIC indices, one per port (not validated; see
    /// [`Mapping::validate`]).
    pub fn from_vec(asic: Vec<usize>) -> Self {
        Self { asic }
    }
    /// The static (identity) mapping: port `i` goes to ASIC `i / (p / n)`.
    pub fn identity(ports: usize, asics: usize) -> Result<Self, Error> {
        check_dims(ports, asics)?;
        let k = ports / asics;
        Ok(Self {
            asic: (0..ports).map(|i| i / k).collect(),
        })
    }
    /// ASIC of port `i`.
    pub fn asic_of(&self, i: usize) -> usize {
        self.asic[i]
    }
    /// ASIC per port.
    pub fn as_slice(&self) -> &[usize] {
        &self.asic
    }
    /// Mutable ASIC per port (for reusing the allocation across solves).
    pub fn as_mut_vec(&mut self) -> &mut Vec<usize> {
        &mut self.asic
    }
    /// Number of ports.
    pub fn len(&self) -> usize {
        self.asic.len()
    }
    /// True if the mapping has no ports.
    pub fn is_empty(&self) -> bool {
        self.asic.is_empty()
    }
    /// Checks that the mapping fits `ports` ports on `asics` ASICs with
    /// exactly `ports / asics` ports each (paper eq. 2).
    pub fn validate(&self, ports: usize, asics: usize) -> Result<(), Error> {
        check_dims(ports, asics)?;
        if self.asic.len() != ports {
            return Err(Error::Shape {
                field: "mapping",
                expected: ports,
                got: self.asic.len(),
            });
        }
        let mut count = vec![0usize; asics];
        for (i, &a) in self.asic.iter().enumerate() {
            if a >= asics {
                return Err(Error::InvalidMapping(format!(
                    "port {i} is mapped to ASIC {a}, allowed 0..{asics}"
                )));
            }
            count[a] += 1;
        }
        if let Some((j, &c)) = count.iter().enumerate().find(|(_, &c)| c != ports / asics) {
            return Err(Error::InvalidMapping(format!(
                "ASIC {j} has {c} ports, must have exactly {}",
                ports / asics
            )));
        }
        Ok(())
    }
}

/// Inter-ASIC bytes of `mapping` (paper eq. 1): every byte of port `i` that
/// goes to an ASIC other than the one `i` is mapped to crosses ASICs.
///
/// Panics if `mapping` has fewer entries than `tm` has ports or maps to an
/// ASIC out of range; use [`Mapping::validate`] first for untrusted input.
pub fn inter_asic_bytes(tm: TmView<'_>, mapping: &[usize]) -> u64 {
    (0..tm.ports)
        .map(|i| {
            let row = tm.row(i);
            row.iter().sum::<u64>() - row[mapping[i]]
        })
        .sum()
}

/// Inter-ASIC bytes of the static (identity) mapping.
pub fn static_inter_asic_bytes(tm: TmView<'_>) -> u64 {
    let k = tm.capacity();
    (0..tm.ports)
        .map(|i| {
            let row = tm.row(i);
            row.iter().sum::<u64>() - row[i / k]
        })
        .sum()
}
