//! Build script: link the `wayfarer` binary with packed relative relocations (DT_RELR). A position-independent binary
//! of this size carries about a million relative relocations; stored the ordinary way they are tens of megabytes
//! that the loader reads at every start, and those pages stay resident. Packed, they are a few hundred kilobytes.
//! (Needs glibc 2.36 or newer and a linker that knows `-z pack-relative-relocs`: GNU ld 2.38+, lld 15+.)

fn main() {
    println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    println!("cargo:rerun-if-changed=src/build.rs");
}
