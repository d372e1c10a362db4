//! Records the versions Cargo.lock pins for the three engines (DBXB_<NAME>_VERSION), so that
//! `dbx-bench list` and every results file name the exact crate linked.

fn locked_version(lock: &str, name: &str) -> String {
    let header = format!("name = \"{name}\"\n");
    let at = lock
        .find(&header)
        .unwrap_or_else(|| panic!("Cargo.lock has no package {name}"));
    let rest = &lock[at + header.len()..];
    let line = rest.lines().next().unwrap_or_default();
    line.strip_prefix("version = \"")
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or_else(|| panic!("no version after {name}"))
        .to_string()
}

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let path = format!("{dir}/Cargo.lock");
    println!("cargo:rerun-if-changed={path}");
    let lock = std::fs::read_to_string(&path).expect("read Cargo.lock");
    for (name, var) in [("sled", "SLED"), ("redb", "REDB"), ("dbx-core", "DBX_CORE")] {
        println!(
            "cargo:rustc-env=DBXB_{var}_VERSION={}",
            locked_version(&lock, name)
        );
    }
}
