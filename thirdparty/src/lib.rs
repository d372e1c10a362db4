//! Empty: this package only names the engines' source crates (see Cargo.toml).
