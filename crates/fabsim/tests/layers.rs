//! The layer order stated in `src/lib.rs` holds: no module uses (`crate::X`) a module listed
//! after it.

use std::fs;
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The layers, bottom up, as listed in lib.rs's doc comment (`//! - [`name`]: ...`).
fn layers() -> Vec<String> {
    let lib = fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| l.strip_prefix("//! - [`"))
        .map(|l| l[..l.find('`').expect("closing backtick")].to_string())
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every module named right after `crate::` in `text`, including each name of a grouped
/// `use crate::{a, b::c}`.
fn crate_paths(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        // Words like `subcrate::` and paths like `other::crate::` or `$crate::` are not ours.
        if text[..i].ends_with(|c: char| c.is_alphanumeric() || "_:$".contains(c)) {
            continue;
        }
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .find(|c| {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => return true,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .expect("a closed group");
            let mut depth = 0;
            for part in group[..end].split(|c| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => return true,
                    _ => {}
                }
                false
            }) {
                let name = ident(part.trim_start());
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out
}

#[test]
fn lib_rs_lists_every_module_once() {
    let lib = fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap();
    let mut declared: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    let mut listed = layers();
    declared.sort();
    listed.sort();
    assert_eq!(
        listed, declared,
        "lib.rs's layer list and its modules differ"
    );
}

#[test]
fn no_module_uses_a_higher_layer() {
    let order = layers();
    let rank = |m: &str| order.iter().position(|x| x == m);
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    let mut violations = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(SRC).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let top = top.trim_end_matches(".rs");
        if top == "lib" {
            continue;
        }
        let own =
            rank(top).unwrap_or_else(|| panic!("{} is not in lib.rs's layers", rel.display()));
        let text = fs::read_to_string(f).unwrap();
        for used in crate_paths(&text) {
            let r = rank(&used)
                .unwrap_or_else(|| panic!("{}: crate::{used} is not a layer", rel.display()));
            if r > own {
                violations.push(format!("{} ({top}) uses crate::{used}", rel.display()));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "layering violations:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checker_sees_grouped_and_inline_paths() {
    let text =
        "use crate::{net::{Fabric, Tier}, lb};\nlet x = crate::sim::run();\nuse other::crate::x; $crate::y;";
    assert_eq!(crate_paths(text), ["net", "lb", "sim"]);
}
