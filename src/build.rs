//! Build script: link the `wayfarer` binary with packed relative relocations (DT_RELR) on Linux with glibc. A
//! position-independent binary of this size carries about a million relative relocations; stored the ordinary way
//! they are tens of megabytes that the loader reads at every start, and those pages stay resident. Packed, they are
//! a few tens of kilobytes. (Needs glibc 2.36 or newer to run, and GNU ld 2.38+ or lld 15+ to link; set
//! `WAYFARER_NO_RELR=1` to build without it.)

fn main() {
    println!("cargo:rerun-if-changed=src/build.rs");
    println!("cargo:rerun-if-env-changed=WAYFARER_NO_RELR");
    let target = |key: &str| std::env::var(key).unwrap_or_default();
    let linux_gnu = target("CARGO_CFG_TARGET_OS") == "linux" && target("CARGO_CFG_TARGET_ENV") == "gnu";
    if linux_gnu && std::env::var_os("WAYFARER_NO_RELR").is_none() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
