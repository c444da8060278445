//! Tidiness rules over every `.rs` file under `crates/*/src` and `python/src`:
//!
//! - no function (`fn` item: free, method or nested) longer than [`MAX_FN_LINES`] lines, from
//!   its `fn` line to its closing brace, unless it is on [`LONG_FNS`], a list that can only
//!   shrink: a listed function must still be over the limit and no longer than recorded;
//! - no `use super::*` outside a `mod tests` block (a module names what it takes);
//! - no hand-indexed `ALL[<digit>` (name the variant instead).
//!
//! The scanner blanks comments, strings and character literals before it matches braces;
//! its own tests below hold it to small inline examples.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The longest a function may be, in lines from `fn` to its closing brace.
const MAX_FN_LINES: usize = 70;

/// Functions over [`MAX_FN_LINES`] as they were when the rule came in: `path::name` (path
/// from the repository root; `outer::inner` for a nested function, the enclosing impl's or
/// trait's type is not part of the key) and their length. Shrink only: when one of these
/// gets shorter, lower its number; at 70 lines or fewer, remove it. Never add to it: split
/// the function instead.
const LONG_FNS: &[(&str, usize)] = &[
    ("crates/fabsim-cli/src/cmd_portmap.rs::format_power", 78),
    ("crates/fabsim-cli/src/run.rs::table", 117),
    ("crates/fabsim-lab/src/flow_plots.rs::flow_figures", 97),
    ("crates/fabsim-lab/src/flow_plots.rs::read_flows", 99),
    ("crates/fabsim-lab/src/flow_plots.rs::report_figures", 101),
    ("crates/fabsim-lab/src/fuzz.rs::case", 116),
    ("crates/fabsim-lab/src/reproduce/fastroute/compute.rs::fig20_claims", 96),
    ("crates/fabsim-lab/src/reproduce/fastroute/compute.rs::fig2_claims", 97),
    ("crates/fabsim-lab/src/reproduce/fastroute/compute.rs::table2_claims", 91),
    ("crates/fabsim-lab/src/reproduce/fastroute/figs17_26.rs::fig24_claims", 92),
    ("crates/fabsim-lab/src/reproduce/fastroute/figs17_26.rs::fig26_claims", 73),
    ("crates/fabsim-lab/src/reproduce/fastroute/figs8_16.rs::fig13_claims", 79),
    ("crates/fabsim-lab/src/reproduce/fastroute/figs8_16.rs::n_asics", 125),
    ("crates/fabsim-lab/src/reproduce/mod.rs::reproduce", 86),
    ("crates/fabsim-lab/src/reproduce/ofan/cc.rs::fig12", 81),
    ("crates/fabsim-lab/src/reproduce/ofan/cc.rs::fsdp_block", 75),
    ("crates/fabsim-lab/src/reproduce/ofan/figs1_8.rs::fig5", 77),
    ("crates/fabsim-lab/src/reproduce/ofan/figs9_13.rs::fig13", 72),
    ("crates/fabsim-lab/src/reproduce/ofan/figs9_13.rs::fig13_claims", 122),
    ("crates/fabsim-lab/src/reproduce/plot.rs::chart", 83),
    ("crates/fabsim-lab/src/reproduce/start.rs::readings_section", 73),
    ("crates/fabsim-lab/src/sweep/mod.rs::slurm", 104),
    ("crates/fabsim/src/lb/mod.rs::choose", 83),
    ("crates/fabsim/src/metrics/bound.rs::chain_schedule", 111),
    ("crates/fabsim/src/metrics/mod.rs::report", 96),
    ("crates/fabsim/src/net/asic.rs::new", 88),
    ("crates/fabsim/src/net/failures.rs::new", 79),
    ("crates/fabsim/src/scenario/arch.rs::parse", 103),
    ("crates/fabsim/src/scenario/mod.rs::expand", 98),
    ("crates/fabsim/src/scenario/tests.rs::multi_asic_port_speeds_and_errors", 120),
    ("crates/fabsim/src/scenario/tests.rs::out_of_range_values_are_refused_up_front", 73),
    ("crates/fabsim/src/scenario/workload.rs::parse", 113),
    ("crates/fabsim/src/scenario/workload.rs::the_flow_floor_is_the_smallest_flow_where_messages_split", 113),
    ("crates/fabsim/src/sim.rs::new", 91),
    ("crates/fabsim/src/sim/parallel.rs::windows", 121),
    ("crates/fabsim/src/theory.rs::permutation_bound_ps", 82),
    ("crates/fabsim/src/workload/cdf.rs::parse", 87),
    ("crates/fabsim/src/workload/mod.rs::size", 110),
    ("crates/portmap/src/constraints.rs::solve", 93),
    ("crates/portmap/src/greedy.rs::walk", 96),
    ("crates/portmap/src/hungarian.rs::solve_into", 77),
    ("crates/portmap/src/rdc.rs::kernighan_lin", 79),
];

#[test]
fn functions_are_at_most_70_lines_or_listed_and_shrinking() {
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    for file in sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        for f in functions(&blank(&text)) {
            if f.lines > MAX_FN_LINES {
                let key = format!("{}::{}", rel(&file), f.name);
                let prev = found.insert(key.clone(), f.lines);
                assert!(
                    prev.is_none(),
                    "two functions over {MAX_FN_LINES} lines share the key {key}: split or rename one"
                );
            }
        }
    }
    let listed: BTreeMap<&str, usize> = LONG_FNS.iter().copied().collect();
    assert_eq!(
        listed.len(),
        LONG_FNS.len(),
        "LONG_FNS lists a function twice"
    );
    let mut errors = vec![];
    for (key, &lines) in &found {
        match listed.get(key.as_str()) {
            None => errors.push(format!(
                "{key} is {lines} lines (limit {MAX_FN_LINES}): split it (LONG_FNS only shrinks)"
            )),
            Some(&max) if lines > max => errors.push(format!(
                "{key} grew to {lines} lines (listed at {max}): split it back under {max}"
            )),
            Some(&max) if lines < max => errors.push(format!(
                "{key} shrank to {lines} lines: lower its LONG_FNS entry from {max} to {lines}"
            )),
            Some(_) => {}
        }
    }
    for key in listed.keys() {
        if !found.contains_key(*key) {
            errors.push(format!(
                "{key} is gone or now at most {MAX_FN_LINES} lines: remove it from LONG_FNS"
            ));
        }
    }
    assert!(
        errors.is_empty(),
        "{}\n\nall functions over {MAX_FN_LINES} lines now:\n{}",
        errors.join("\n"),
        found
            .iter()
            .map(|(k, n)| format!("    (\"{k}\", {n}),"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn glob_imports_from_super_only_in_tests() {
    let mut errors = vec![];
    // A `tests.rs` file is the body of a `mod tests;`.
    for file in sources().into_iter().filter(|f| !f.ends_with("tests.rs")) {
        let text = blank(&std::fs::read_to_string(&file).unwrap());
        for line in glob_super_uses(&text) {
            errors.push(format!("{}:{line}", rel(&file)));
        }
    }
    assert!(
        errors.is_empty(),
        "`use super::*` outside `mod tests`: import the names the module uses\n{}",
        errors.join("\n")
    );
}

#[test]
fn no_hand_indexed_all_lists() {
    let mut errors = vec![];
    for file in sources() {
        let text = blank(&std::fs::read_to_string(&file).unwrap());
        for line in hand_indexed_all(&text) {
            errors.push(format!("{}:{line}", rel(&file)));
        }
    }
    assert!(
        errors.is_empty(),
        "`ALL[<digit>]` picks a variant by its position: name the variant\n{}",
        errors.join("\n")
    );
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rel(file: &Path) -> String {
    let r = file.strip_prefix(root()).unwrap();
    r.to_string_lossy().replace('\\', "/")
}

/// Every `.rs` file under `crates/*/src` and `python/src`, sorted.
fn sources() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("python/src")];
    for c in std::fs::read_dir(root().join("crates")).unwrap() {
        dirs.push(c.unwrap().path().join("src"));
    }
    let mut files = vec![];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 50, "found only {} sources", files.len());
    files
}

/// `src` with the contents of comments, strings and character literals replaced by spaces
/// (the quotes stay; newlines stay, so line numbers are kept).
fn blank(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = c.clone();
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let wipe = |out: &mut Vec<char>, from: usize, to: usize| {
        for x in &mut out[from..to] {
            if *x != '\n' {
                *x = ' ';
            }
        }
    };
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = c[i..]
                .iter()
                .position(|&x| x == '\n')
                .map_or(c.len(), |n| i + n);
            wipe(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            wipe(&mut out, i, j);
            i = j;
        } else if c[i] == 'r'
            && (i == 0 || !ident(c[i - 1]) || (c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
            && {
                let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
                c.get(i + 1 + hashes) == Some(&'"')
            }
        {
            // A raw string: r"..", r#".."#, br"..".
            let hashes = c[i + 1..].iter().take_while(|&&x| x == '#').count();
            let start = i + 2 + hashes;
            let mut j = start;
            while j < c.len() {
                if c[j] == '"'
                    && c[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&x| x == '#')
                        .count()
                        == hashes
                {
                    break;
                }
                j += 1;
            }
            wipe(&mut out, start, j);
            i = j + 1 + hashes;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            wipe(&mut out, i + 1, j.min(c.len()));
            i = j + 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{..}', '"'), else a lifetime or label.
            let end = if next == Some('\\') {
                c[i + 2..]
                    .iter()
                    .position(|&x| x == '\'')
                    .map(|n| i + 2 + n)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    wipe(&mut out, i + 1, e);
                    i = e + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// A function item found in blanked text.
#[derive(Debug, PartialEq)]
struct Func {
    /// `name`, or `outer::name` for a function nested in another's body.
    name: String,
    /// 1-based line of the `fn` keyword.
    line: usize,
    /// Lines from the `fn` line to the closing brace, both included.
    lines: usize,
}

/// The word starting at `i` if it is a whole identifier there.
fn word_at(c: &[char], i: usize) -> Option<String> {
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    if i > 0 && ident(c[i - 1]) || !c.get(i).is_some_and(|&x| ident(x)) {
        return None;
    }
    Some(c[i..].iter().take_while(|&&x| ident(x)).collect())
}

/// Every function with a body in blanked text (declarations without one are skipped).
fn functions(text: &str) -> Vec<Func> {
    let c: Vec<char> = text.chars().collect();
    let line_of = |i: usize| 1 + c[..i].iter().filter(|&&x| x == '\n').count();
    let mut found = vec![];
    // Enclosing function bodies: (name, index of their closing brace).
    let mut outer: Vec<(String, usize)> = vec![];
    let mut i = 0;
    while i < c.len() {
        while outer.last().is_some_and(|o| o.1 < i) {
            outer.pop();
        }
        if word_at(&c, i).as_deref() != Some("fn") {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < c.len() && c[j].is_whitespace() {
            j += 1;
        }
        // `fn(` is a function pointer type, not an item.
        let Some(name) = word_at(&c, j).filter(|_| j > i + 2) else {
            i += 2;
            continue;
        };
        // The body opens at the first `{` outside parentheses and brackets; a `;` first means
        // a declaration.
        let mut depth = 0i32;
        let mut k = j + name.len();
        while k < c.len() {
            match c[k] {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '{' | ';' if depth == 0 => break,
                _ => {}
            }
            k += 1;
        }
        if k >= c.len() || c[k] == ';' {
            i = k;
            continue;
        }
        let close = matching(&c, k);
        let full = match outer.last() {
            Some((o, _)) => format!("{o}::{name}"),
            None => name.clone(),
        };
        found.push(Func {
            name: full.clone(),
            line: line_of(i),
            lines: line_of(close) - line_of(i) + 1,
        });
        outer.push((full, close));
        i = k + 1;
    }
    found
}

/// The index of the brace closing the one at `open` (the end of the text if none does).
fn matching(c: &[char], open: usize) -> usize {
    let mut depth = 0;
    for (k, &ch) in c.iter().enumerate().skip(open) {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    c.len() - 1
}

/// The lines of `use super::*` outside a `mod tests { .. }` block, in blanked text.
fn glob_super_uses(text: &str) -> Vec<usize> {
    let c: Vec<char> = text.chars().collect();
    let line_of = |i: usize| 1 + c[..i].iter().filter(|&&x| x == '\n').count();
    let mut tests: Vec<(usize, usize)> = vec![];
    let mut uses = vec![];
    for i in 0..c.len() {
        match word_at(&c, i).as_deref() {
            Some("mod") => {
                let rest: String = c[i + 3..].iter().take(40).collect();
                let rest: String = rest.split_whitespace().collect::<Vec<_>>().join(" ");
                if rest.starts_with("tests {") || rest.starts_with("tests{") {
                    let open = i + c[i..].iter().position(|&x| x == '{').unwrap();
                    tests.push((open, matching(&c, open)));
                }
            }
            Some("use") => {
                let rest: String = c[i + 3..].iter().take_while(|&&x| x != ';').collect();
                let rest: String = rest.split_whitespace().collect();
                if rest == "super::*" {
                    uses.push(i);
                }
            }
            _ => {}
        }
    }
    uses.into_iter()
        .filter(|&u| !tests.iter().any(|&(a, b)| a < u && u < b))
        .map(line_of)
        .collect()
}

/// The lines indexing a list named `ALL` with a literal digit, in blanked text.
fn hand_indexed_all(text: &str) -> Vec<usize> {
    let c: Vec<char> = text.chars().collect();
    (0..c.len())
        .filter(|&i| {
            word_at(&c, i).as_deref() == Some("ALL")
                && c.get(i + 3) == Some(&'[')
                && c.get(i + 4).is_some_and(|x| x.is_ascii_digit())
        })
        .map(|i| 1 + c[..i].iter().filter(|&&x| x == '\n').count())
        .collect()
}

#[test]
fn blank_hides_comments_strings_and_chars_but_keeps_lines() {
    let src = "let a = \"{ \\\" }\"; // {\nlet b = '{'; let c = '\\''; /* { /* } */ { */\nlet r = r#\"}\"#; fn f<'a>(x: &'a str) {}\n";
    let b = blank(src);
    assert_eq!(b.lines().count(), src.lines().count());
    assert_eq!(b.matches('{').count(), 1, "{b}");
    assert_eq!(b.matches('}').count(), 1, "{b}");
    assert!(b.contains("fn f<'a>(x: &'a str) {}"), "{b}");
    assert!(b.contains("let b = ' ';"), "{b}");
}

#[test]
fn functions_are_measured_from_fn_to_closing_brace() {
    let src = "\
/// doc {
#[attr]
pub fn one(x: [u8; 2]) -> impl Fn(u8) -> u8 {
    let s = \"}\";
    move |y| { y }
}
trait T {
    fn decl(&self);
    fn with_default(&self) -> u8
    where
        Self: Sized,
    {
        fn inner(p: fn(u8) -> u8) -> u8 {
            p(1)
        }
        inner(|x| x)
    }
}
";
    let got = functions(&blank(src));
    let want = [
        ("one", 3, 4),
        ("with_default", 9, 9),
        ("with_default::inner", 13, 3),
    ];
    let want: Vec<Func> = want
        .iter()
        .map(|&(n, line, lines)| Func {
            name: n.into(),
            line,
            lines,
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn glob_super_use_is_allowed_in_mod_tests_only() {
    let src = "\
use super::*;
mod inner {
    use super::{a, b};
    use super :: *;
}
// use super::*;
#[cfg(test)]
mod tests {
    use super::*;
}
";
    assert_eq!(glob_super_uses(&blank(src)), vec![1, 4]);
}

#[test]
fn hand_indexed_all_is_found_but_not_other_names() {
    let src = "let a = Kind::ALL[0];\nlet b = ALL[i];\nlet c = NOT_ALL[1];\n// ALL[2]\n";
    assert_eq!(hand_indexed_all(&blank(src)), vec![1]);
}
