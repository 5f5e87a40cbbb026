//! Which way a built blueprint's front faces (kept apart from the rest of the module: the chat grammar reads it, and
//! the fuzz harness compiles the grammar without azalea).

use std::{fmt, str::FromStr};

/// Which way a blueprint's front faces once built. As drawn, a blueprint's front is its south side (the last row of
/// each layer in the text format).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Facing {
    North,
    East,
    #[default]
    South,
    West,
}

impl Facing {
    /// Quarter turns clockwise from the blueprint as drawn.
    pub fn turns(self) -> u8 {
        match self {
            Facing::South => 0,
            Facing::West => 1,
            Facing::North => 2,
            Facing::East => 3,
        }
    }
}

impl FromStr for Facing {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "n" | "north" => Ok(Facing::North),
            "e" | "east" => Ok(Facing::East),
            "s" | "south" => Ok(Facing::South),
            "w" | "west" => Ok(Facing::West),
            _ => Err(format!("{s:?} is not a side: use N, E, S or W")),
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Facing::North => "north",
            Facing::East => "east",
            Facing::South => "south",
            Facing::West => "west",
        })
    }
}
