//! The owner allow-list: the only players whose chat commands a bot obeys.

/// Player names allowed to command the bots. Minecraft names are unique regardless of case, so comparison ignores it.
#[derive(Clone, Debug, Default)]
pub struct Owners {
    names: Vec<String>,
}

impl Owners {
    pub fn new(names: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Self { names: names.into_iter().map(|n| n.into().to_ascii_lowercase()).collect() }
    }

    /// True if and only if `player` is on the list.
    pub fn contains(&self, player: &str) -> bool {
        self.names.iter().any(|n| n.eq_ignore_ascii_case(player))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_check_ignores_case_and_nothing_else() {
        let owners = Owners::new(["Alice", "bob_2"]);
        assert!(owners.contains("alice"));
        assert!(owners.contains("BOB_2"));
        assert!(!owners.contains("Alic"));
        assert!(!owners.contains("Alice "));
        assert!(!Owners::default().contains("Alice"));
    }
}
