//! `crate::primitives`'s pure part: a box of the world's blocks and the shapes found in it.

#[path = "../../../src/primitives/area.rs"]
pub mod area;
