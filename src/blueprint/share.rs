//! One member's share of a blueprint a team builds together (`part 2/3`). Kept apart from the rest of the module:
//! the chat grammar reads it, and the fuzz harness compiles the grammar without azalea.

use std::{fmt, str::FromStr};

/// The most members one blueprint is split among.
pub const MAX_SHARES: u8 = 8;

/// Share `index` of `of` (both from 1): the `index`-th of `of` strips of the footprint, each about as many blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    pub index: u8,
    pub of: u8,
}

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

impl FromStr for Share {
    type Err = String;

    fn from_str(text: &str) -> Result<Share, String> {
        let wrong = || format!("{text:?} is not a share: write K/N, as in part 2/3 (N at most {MAX_SHARES})");
        let (index, of) = text.split_once('/').ok_or_else(wrong)?;
        let (index, of): (u8, u8) =
            (index.trim().parse().map_err(|_| wrong())?, of.trim().parse().map_err(|_| wrong())?);
        if index == 0 || index > of || of > MAX_SHARES {
            return Err(wrong());
        }
        Ok(Share { index, of })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_reads_as_k_of_n() {
        assert_eq!("2/3".parse(), Ok(Share { index: 2, of: 3 }));
        assert_eq!(Share { index: 1, of: 1 }.to_string(), "1/1");
        for wrong in ["0/3", "4/3", "1/9", "2", "a/b", "/", "1/-2", ""] {
            assert!(wrong.parse::<Share>().is_err(), "{wrong}");
        }
    }
}
