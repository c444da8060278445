//! The key schema as documentation: the README's table is the schema's, every default is
//! valid for its own key, and every listed key parses.

use fabsim::scenario::{keys_listing, keys_markdown, schema, Scenario};

const README: &str = include_str!("../../../README.md");

#[test]
fn readme_key_table_is_generated_from_the_schema() {
    let begin = "<!-- keys:begin -->\n";
    let end = "<!-- keys:end -->";
    let start = README
        .find(begin)
        .expect("README has the keys:begin marker")
        + begin.len();
    let stop = README.find(end).expect("README has the keys:end marker");
    let (readme, schema) = (&README[start..stop], keys_markdown());
    if let Some((a, b)) = readme
        .lines()
        .zip(schema.lines())
        .find(|(a, b)| a != b)
        .or((readme.lines().count() != schema.lines().count()).then_some(("(length)", "")))
    {
        panic!("README key table is stale (regenerate it with `fabsim keys --markdown`):\n README: {a}\n schema: {b}");
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
