//! The key schema as documentation: the README's tables are the code's, every default is
//! valid for its own key, and every listed key parses.

use fabsim::scenario::{choices, choices_markdown, keys_listing, keys_markdown, schema, Scenario};

/// The README's generated tables: the text between `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->` is the code's. With `FABSIM_BLESS=1` the test writes them in place
/// instead of comparing (one test, so that no two write the file at once).
#[test]
fn readme_tables_are_generated_from_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let mut readme = std::fs::read_to_string(path).expect("README.md");
    let bless = std::env::var_os("FABSIM_BLESS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, generated) in [("keys", keys_markdown()), ("choices", choices_markdown())] {
        let begin = format!("<!-- {name}:begin -->\n");
        let end = format!("<!-- {name}:end -->");
        let start = readme
            .find(&begin)
            .unwrap_or_else(|| panic!("README has the {name}:begin marker"))
            + begin.len();
        let stop = readme
            .find(&end)
            .unwrap_or_else(|| panic!("README has the {name}:end marker"));
        let text = &readme[start..stop];
        if text == generated {
            continue;
        }
        let (a, b) = text
            .lines()
            .zip(generated.lines())
            .find(|(a, b)| a != b)
            .unwrap_or(("(length)", ""));
        stale.push(format!("the {name} table:\n README: {a}\n code:   {b}"));
        readme.replace_range(start..stop, &generated);
    }
    if bless {
        std::fs::write(path, &readme).expect("README.md written");
    } else if !stale.is_empty() {
        panic!(
            "README is stale (regenerate it with `FABSIM_BLESS=1 cargo test -p fabsim --test keys`): {}",
            stale.join("; ")
        );
    }
}

/// Every scheme, congestion control, profile and workload kind says what it is: the
/// README's choices table shows it (a `///` line beside the variant in `named_enum!`).
#[test]
fn every_choice_has_a_meaning() {
    for (key, values) in choices() {
        assert!(!values.is_empty(), "{key}");
        for (name, meaning) in values {
            assert!(
                !meaning.is_empty() && !meaning.contains('\n'),
                "{key} = \"{name}\" has no one-line meaning: write a `///` line above it"
            );
        }
    }
}

#[test]
fn every_key_is_listed_and_its_default_passes_its_own_check() {
    let listing = keys_listing();
    for k in schema() {
        assert!(
            listing.contains(k.name),
            "{} missing from `fabsim keys`",
            k.name
        );
        assert!(!k.meaning.is_empty(), "{} has no meaning", k.name);
        if let Some(d) = k.default {
            let v: toml::Value = format!("v = {d}").parse::<toml::Table>().unwrap()["v"].clone();
            k.check(&v)
                .unwrap_or_else(|e| panic!("{}: default {d}: {e}", k.name));
            // Setting the default explicitly is a valid scenario.
            let mut s = Scenario::default_scenario();
            s.set(&format!("{}={d}", k.name)).unwrap();
            s.expand().unwrap_or_else(|e| panic!("{}={d}: {e}", k.name));
        }
    }
}
