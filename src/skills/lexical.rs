//! The lexical half of skill search: BM25 over each skill's name (split at camelCase) and description, with queries
//! widened first by Minecraft's display names (`vocabulary.txt`, from minecraft-data) and by the words players use
//! for things (`synonyms.txt`: a workbench is a crafting table) and the things it describes without naming them
//! (`glossary.txt`: "the tall black mob that teleports" is an enderman). Words are lowercased, common English words
//! dropped, and each word stemmed, so "planks" finds "plank" and "chopping" finds "chop".

use std::{
    borrow::Cow,
    collections::{HashMap, HashSet},
    sync::OnceLock,
};

use bm25::{Document, SearchEngine, SearchEngineBuilder};
use rust_stemmers::{Algorithm, Stemmer};

/// Skill names and search texts, by name, scored with BM25.
pub struct Lexical {
    engine: SearchEngine<String, u32, Words>,
    /// The things skills are named after, stemmed (`craftIronHelmet`: iron, helmet), with how many names have each.
    things: HashMap<String, usize>,
    /// The same for the skills that kill (`killThreeCows`: cow), to read "get beef from cows" as asking to kill.
    prey: HashMap<String, usize>,
    /// The stems of the skills' names and texts and the words of the things they are named after, with how many
    /// skills have each, and each skill's own: a request's misspelling is read as the thing it misses
    /// ([`Lexical::spelled`]).
    known: HashMap<String, usize>,
    thing_words: HashMap<String, usize>,
    skill_words: HashMap<String, (Vec<String>, Vec<String>)>,
}

impl Lexical {
    /// An index over `(name, search text)` pairs.
    pub fn new<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let (mut things, mut prey) = (HashMap::new(), HashMap::new());
        let skills: Vec<(&str, &str)> = skills.into_iter().collect();
        let documents: Vec<Document<String>> = skills
            .iter()
            .inspect(|(name, _)| count_things(&mut things, &mut prey, name, 1))
            .map(|(name, text)| document(name, text))
            .collect();
        let engine = SearchEngineBuilder::<String, u32, Words>::with_tokenizer_and_documents(Words, documents).build();
        let mut lexical = Lexical {
            engine,
            things,
            prey,
            known: HashMap::new(),
            thing_words: HashMap::new(),
            skill_words: HashMap::new(),
        };
        for (name, text) in skills {
            lexical.know(name, Some(text));
        }
        lexical
    }

    /// Adds a skill, or replaces its text.
    pub fn upsert(&mut self, name: &str, text: &str) {
        if self.engine.get(&name.to_owned()).is_none() {
            count_things(&mut self.things, &mut self.prey, name, 1);
        }
        self.know(name, Some(text));
        self.engine.upsert(document(name, text));
    }

    pub fn remove(&mut self, name: &str) {
        if self.engine.get(&name.to_owned()).is_some() {
            count_things(&mut self.things, &mut self.prey, name, -1);
        }
        self.know(name, None);
        self.engine.remove(&name.to_owned());
    }

    /// Counts the words of skill `name` with `text` (none when it is removed) in place of those it had: the stems of
    /// its name's and text's words, and the words of the things it is named after (its name's words but the verb).
    fn know(&mut self, name: &str, text: Option<&str>) {
        if let Some((stems, things)) = self.skill_words.remove(name) {
            for (counts, gone) in [(&mut self.known, stems), (&mut self.thing_words, things)] {
                for word in gone {
                    if let Some(count) = counts.get_mut(&word) {
                        *count -= 1;
                        if *count == 0 {
                            counts.remove(&word);
                        }
                    }
                }
            }
        }
        let Some(text) = text else { return };
        let unique = |mut words: Vec<String>| {
            words.sort_unstable();
            words.dedup();
            words
        };
        let stems = unique(words(name).into_iter().chain(words(text)).map(|word| stem(&word)).collect());
        let things = unique(words(name).into_iter().skip(1).collect());
        for (counts, new) in [(&mut self.known, &stems), (&mut self.thing_words, &things)] {
            for word in new {
                *counts.entry(word.clone()).or_default() += 1;
            }
        }
        self.skill_words.insert(name.to_owned(), (stems, things));
    }

    /// `query` with the thing each misspelled word misses added (`dimond boots` → `dimond boots diamond`): a word of
    /// four letters or more that is no English word (`is_word`: the embedding model's whole words) and that no skill,
    /// display name, player's word or description has, even by its stem, gets the thing (a word of a skill's name
    /// after its verb, a display name's, a player's word) one slip from it, as long or one letter longer, that starts
    /// with the same two letters — the most used, where several are as near.
    pub fn spelled<'a>(&self, query: &'a str, is_word: impl Fn(&str) -> bool) -> Cow<'a, str> {
        let mut added = String::new();
        for word in words(query) {
            if word.chars().count() < 4
                || !word.chars().all(|c| c.is_ascii_lowercase())
                || STOP_WORDS.contains(&word.as_str())
                || is_word(&word)
                || self.known.contains_key(&stem(&word))
                || known_elsewhere(&word)
            {
                continue;
            }
            let tables = table_words().2.iter().map(|word| (word, &0));
            let nearest = self
                .thing_words
                .iter()
                .chain(tables)
                .filter(|(thing, _)| thing.len() >= 4 && thing.as_bytes()[..2] == word.as_bytes()[..2])
                .filter(|(thing, _)| (word.len()..=word.len() + 1).contains(&thing.len()))
                .filter(|(thing, _)| slips_between(&word, thing) == 1)
                .map(|(thing, used)| (std::cmp::Reverse(*used), thing))
                .min();
            if let Some((_, thing)) = nearest {
                added.push(' ');
                added.push_str(thing);
            }
        }
        if added.is_empty() { Cow::Borrowed(query) } else { Cow::Owned(format!("{query}{added}")) }
    }

    /// The actions `query` asks for ([`actions`]); a request that says none and only names things the skills are
    /// named after ("iron hat") asks to get them; one that asks to get something from an animal a skill kills ("get
    /// bacon from a pig", "feathers from birds") asks to kill it — but not milk or eggs, which the animal gives alive.
    pub fn asked(&self, query: &str) -> Vec<&'static str> {
        let said = main_clause(&words(query));
        let mut asked = actions_in(&said);
        if asked.is_empty() && self.names_only_things(&said) {
            asked = actions("get");
        }
        if asked == actions("get") && self.asks_from_prey(&said) { actions("kill") } else { asked }
    }

    /// Whether `said` says `from` and, within the three words after it, an animal a skill kills (by its name or a
    /// description of it: "birds" are chickens), and asks for nothing the animal gives alive.
    fn asks_from_prey(&self, said: &[String]) -> bool {
        const GIVEN_ALIVE: [&str; 3] = ["milk", "egg", "eggs"];
        if said.iter().any(|word| GIVEN_ALIVE.contains(&word.as_str())) {
            return false;
        }
        said.iter().enumerate().filter(|(_, word)| *word == "from").any(|(at, _)| {
            let after = &said[at + 1..said.len().min(at + 4)];
            let is_prey = |word: &str| self.prey.contains_key(&stem(word));
            after.iter().any(|word| is_prey(word))
                || described(after).iter().any(|(_, thing)| thing.split_whitespace().any(is_prey))
        })
    }

    /// Whether every word of `said` but the function words is a thing skills are named after, or a player's word or
    /// display name for one (`hat` is a helmet), and there is at least one.
    fn names_only_things(&self, said: &[String]) -> bool {
        let known = |word: &str| self.things.contains_key(&stem(word));
        let mut covered: Vec<bool> =
            said.iter().map(|word| STOP_WORDS.contains(&word.as_str()) || known(word)).collect();
        for (phrase, adds) in table() {
            for at in 0..said.len().saturating_sub(phrase.len() - 1) {
                if said[at..at + phrase.len()] == phrase[..] && adds.split_whitespace().any(known) {
                    covered[at..at + phrase.len()].fill(true);
                }
            }
        }
        for (at, adds) in described(said) {
            if adds.split_whitespace().any(known) {
                covered[at].fill(true);
            }
        }
        covered.iter().all(|&c| c) && said.iter().any(|word| !STOP_WORDS.contains(&word.as_str()))
    }

    /// Whether a skill named `name` is after only things `query` asks for: every word of its name but the verb, the
    /// function words and the counts (`collectMelonSeeds`: melon, seeds) is among the stems of the query widened by
    /// [`widen`] — "chop down one melon" names all of `collectMelon`'s things, not `collectMelonSeeds`'s.
    pub fn names_only_asked(&self, asked: &HashSet<String>, name: &str) -> bool {
        let mut things = words(name)
            .into_iter()
            .skip(1)
            .filter(|word| !STOP_WORDS.contains(&word.as_str()) && !COUNTS.contains(&word.as_str()))
            .peekable();
        things.peek().is_some() && things.all(|word| asked.contains(&stem(&word)))
    }

    /// The stems of `query` widened by [`widen`], for [`Lexical::names_only_asked`].
    pub fn asked_stems(&self, query: &str) -> HashSet<String> {
        bm25::Tokenizer::tokenize(&Words, &widen(query)).into_iter().collect()
    }

    /// The skills sharing words with `query` (widened by [`widen`]), best first, at most `limit`.
    pub fn search(&self, query: &str, limit: usize) -> Vec<(String, f32)> {
        self.engine.search(&widen(query), limit).into_iter().map(|found| (found.document.id, found.score)).collect()
    }
}

/// A skill's document for BM25: its search text, with the things its name is after once more (its words but the
/// verb), so a request for what a skill is named after finds it before one that only uses that thing (a crafting
/// table, not scaffolding made at one).
fn document(name: &str, text: &str) -> Document<String> {
    let things: Vec<String> = words(name).into_iter().skip(1).collect();
    Document::new(name.to_owned(), format!("{} {text}", things.join(" ")))
}

/// Adds `by` to the count of each thing `name` is named after: its words but the first (the verb); for a skill that
/// kills ([`actions`] of "kill"), to `prey`'s count too, but for the counts (`killThreeCows`: cow, not three).
fn count_things(things: &mut HashMap<String, usize>, prey: &mut HashMap<String, usize>, name: &str, by: isize) {
    let kills = actions("kill").contains(&action_of(name).as_str());
    for word in words(name).iter().skip(1).filter(|word| !STOP_WORDS.contains(&word.as_str())) {
        let thing = stem(word);
        let prey = (kills && !COUNTS.contains(&word.as_str()) && !word.chars().all(|c| c.is_ascii_digit()))
            .then_some(&mut *prey);
        for counts in [Some(&mut *things), prey].into_iter().flatten() {
            let count = counts.entry(thing.clone()).or_default();
            *count = count.saturating_add_signed(by);
            if *count == 0 {
                counts.remove(&thing);
            }
        }
    }
}

/// The words of the tables — display names, players' words, glossary descriptions, actions — their stems, and the
/// words of the things the display names and players' words name.
type TableWords = (HashSet<String>, HashSet<String>, HashSet<String>);

fn table_words() -> &'static TableWords {
    static WORDS: OnceLock<TableWords> = OnceLock::new();
    WORDS.get_or_init(|| {
        let lines = |file: &'static str| file.lines().filter(|line| !line.trim_start().starts_with('#'));
        let things: [&'static str; 2] = [include_str!("vocabulary.txt"), include_str!("synonyms.txt")];
        let other: [&'static str; 2] = [include_str!("glossary.txt"), include_str!("actions.txt")];
        let thing_words: HashSet<String> = things.into_iter().flat_map(lines).flat_map(words).collect();
        let all: HashSet<String> =
            other.into_iter().flat_map(lines).flat_map(words).chain(thing_words.iter().cloned()).collect();
        let stems = all.iter().map(|word| stem(word)).collect();
        (all, stems, thing_words)
    })
}

/// Whether `word` (or its stem) is one the tables know.
fn known_elsewhere(word: &str) -> bool {
    table_words().1.contains(&stem(word))
}

/// The fewest slips — a letter left out, added, changed, or two swapped — that make `a` into `b`.
pub fn slips_between(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let changed = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + changed);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// BM25's tokenizer: [`words`], stop words dropped, stemmed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Words;

impl bm25::Tokenizer for Words {
    fn tokenize(&self, text: &str) -> Vec<String> {
        words(text).into_iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).map(|w| stem(&w)).collect()
    }
}

/// Counts in skill names (`killThreeCows`, `smeltAllRawIron`): not things.
const COUNTS: [&str; 14] =
    ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twenty", "more", "some", "all"];

/// Function words that say nothing about what a skill does.
const STOP_WORDS: [&str; 36] = [
    "a", "an", "the", "of", "to", "in", "on", "for", "with", "and", "or", "from", "some", "any", "me", "my", "i", "it",
    "its", "is", "be", "at", "by", "that", "this", "as", "if", "when", "up", "so", "can", "do", "want", "need",
    "please", "im",
];

fn stem(word: &str) -> String {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    let stemmer = STEMMER.get_or_init(|| Stemmer::create(Algorithm::English));
    match stemmer.stem(word) {
        Cow::Borrowed(same) => same.to_owned(),
        Cow::Owned(stemmed) => stemmed,
    }
}

/// Lowercase words: split at anything that is not a letter or digit, and where a lowercase letter meets an uppercase
/// one (`craftIronPickaxe` is craft, iron, pickaxe); apostrophes are dropped (`i'm` is im).
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c == '\'' || c == '’' {
            continue;
        }
        if (!c.is_alphanumeric() || (c.is_uppercase() && previous_lower)) && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// `query` with the words skills use added for each display name and player's word it has (whole words; a phrase
/// matches its words in a row), and for each thing it describes without naming it ([`glossed`]).
pub fn widen(query: &str) -> String {
    let said = words(query);
    let mut widened = glossed(query);
    for (phrase, adds) in table() {
        if !phrase.is_empty() && said.windows(phrase.len()).any(|run| run == phrase.as_slice()) {
            widened.push(' ');
            widened.push_str(adds);
        }
    }
    widened
}

/// `query` with the words skills use added for each thing it describes without naming ([`described`]).
pub fn glossed(query: &str) -> String {
    let mut glossed = query.to_owned();
    for (_, adds) in described(&words(query)) {
        glossed.push(' ');
        glossed.push_str(adds);
    }
    glossed
}

/// The game's things `said` describes without naming them (`glossary.txt`: "something to tell the time" is a clock):
/// where each description is in `said`, and the words skills use for its thing. A thing is given once.
pub fn described(said: &[String]) -> Vec<(std::ops::Range<usize>, &'static str)> {
    let glossary = glossary();
    let stems: Vec<String> = said.iter().map(|word| stem(word)).collect();
    let mut found: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for (at, first) in stems.iter().enumerate() {
        for (phrase, line) in glossary.by_first.get(first).into_iter().flatten() {
            if stems[at..].starts_with(phrase) {
                found.push((*line, at..at + phrase.len()));
            }
        }
    }
    found.sort_by_key(|(line, span)| (*line, span.start));
    found.dedup_by_key(|(line, _)| *line);
    found.into_iter().map(|(line, span)| (span, glossary.things[line])).collect()
}

/// `glossary.txt`, read once: each line's descriptions as stems, found by their first stem, and its thing's words.
struct Glossary {
    /// First stem → the descriptions starting with it, and their line.
    by_first: HashMap<String, Vec<(Vec<String>, usize)>>,
    /// By line: the words skills use for the thing described.
    things: Vec<&'static str>,
}

/// `glossary.txt`'s lines, each description stemmed once.
fn glossary() -> &'static Glossary {
    static GLOSSARY: OnceLock<Glossary> = OnceLock::new();
    GLOSSARY.get_or_init(|| {
        let mut glossary = Glossary { by_first: HashMap::new(), things: Vec::new() };
        let lines = include_str!("glossary.txt")
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .filter_map(|line| line.split_once('='))
            .filter(|(_, thing)| !thing.trim().is_empty());
        for (descriptions, thing) in lines {
            let line = glossary.things.len();
            glossary.things.push(thing.trim());
            for description in descriptions.split('|') {
                let stems: Vec<String> = words(description).iter().map(|word| stem(word)).collect();
                if let Some(first) = stems.first() {
                    glossary.by_first.entry(first.clone()).or_default().push((stems, line));
                }
            }
        }
        glossary
    })
}

/// The id Minecraft's display name `phrase` stands for where the two differ (`block of iron` → `iron_block`), from
/// the vocabulary.
pub fn display_to_id(phrase: &str) -> Option<String> {
    let said = words(phrase);
    include_str!("vocabulary.txt")
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(|line| line.split_once('='))
        .find(|(display, _)| words(display) == said)
        .map(|(_, id)| id.split_whitespace().collect::<Vec<_>>().join("_"))
}

/// The vocabulary and the synonyms, as (phrase in words, words to add).
fn table() -> &'static [(Vec<String>, String)] {
    static TABLE: OnceLock<Vec<(Vec<String>, String)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let files = [include_str!("vocabulary.txt"), include_str!("synonyms.txt")];
        files
            .iter()
            .flat_map(|file| file.lines())
            .filter(|line| !line.trim_start().starts_with('#'))
            .filter_map(|line| line.split_once('='))
            .map(|(phrase, adds)| (words(phrase), adds.trim().to_owned()))
            .filter(|(phrase, adds)| !phrase.is_empty() && !adds.is_empty())
            .collect()
    })
}

/// The actions a request asks for, as the verbs skill names start with (`make a smelter` → `craft`), from
/// `actions.txt`, read in the request's [`main_clause`]; empty when it names none.
pub fn actions(query: &str) -> Vec<&'static str> {
    actions_in(&main_clause(&words(query)))
}

/// The actions a main clause's words ask for (see [`actions`]).
fn actions_in(said: &[String]) -> Vec<&'static str> {
    /// Each line of `actions.txt`: the actions, and the phrases (as words) that ask for them.
    type Table = Vec<(Vec<&'static str>, Vec<Vec<String>>)>;
    static TABLE: OnceLock<Table> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        include_str!("actions.txt")
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .filter_map(|line| line.split_once('='))
            .map(|(verbs, phrases)| {
                (verbs.split_whitespace().collect(), phrases.split('|').map(words).filter(|p| !p.is_empty()).collect())
            })
            .collect()
    });
    let mut asked: Vec<&'static str> = Vec::new();
    for (verbs, phrases) in table {
        if phrases.iter().any(|phrase| says(said, phrase)) {
            for verb in verbs {
                if !asked.contains(verb) {
                    asked.push(verb);
                }
            }
        }
    }
    asked
}

/// Whether `said` has `phrase`'s words in a row, or, for a verb and its particle (`put away`), apart as English
/// allows: a few words between, the particle ending the clause or followed by a preposition ("put my cobblestone
/// away in the chest", but not "put a torch on the wall").
fn says(said: &[String], phrase: &[String]) -> bool {
    const PARTICLES: [&str; 8] = ["away", "down", "up", "on", "off", "out", "together", "back"];
    const AFTER: [&str; 11] = ["in", "into", "inside", "at", "on", "near", "by", "here", "there", "now", "please"];
    if said.windows(phrase.len()).any(|run| run == phrase) {
        return true;
    }
    let [verb, particle] = phrase else { return false };
    if !PARTICLES.contains(&particle.as_str()) {
        return false;
    }
    said.iter().enumerate().filter(|(_, word)| *word == verb).any(|(at, _)| {
        (at + 2..said.len().min(at + 5))
            .any(|end| said[end] == *particle && said.get(end + 1).is_none_or(|next| AFTER.contains(&next.as_str())))
    })
}

/// A request's words up to where it says what for (`to`, `for`, `so`, `because`): "need a spade to dig sand" asks
/// for a spade. Wanting or needing *to* do something is not a purpose: "i want to craft a pickaxe" asks to craft.
fn main_clause(said: &[String]) -> Vec<String> {
    const WISHES: [&str; 12] =
        ["want", "wanna", "need", "needs", "have", "has", "got", "going", "try", "like", "able", "plan"];
    let mut main: Vec<String> = Vec::with_capacity(said.len());
    for word in said {
        match word.as_str() {
            "to" if main.last().is_some_and(|last| WISHES.contains(&last.as_str())) => {
                main.pop();
            }
            "to" | "for" | "so" | "because" if !main.is_empty() => break,
            _ => main.push(word.clone()),
        }
    }
    main
}

/// The verb a skill's name starts with (`craftIronPickaxe` → `craft`).
pub fn action_of(name: &str) -> String {
    words(name).into_iter().next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelled_word_is_read_as_the_library_s_word_it_misses() {
        let lexical = Lexical::new([
            ("craftDiamondBoots", "Crafts diamond boots at a crafting table."),
            ("craftArrow", "Crafts arrows from flint, sticks and feathers."),
            ("mineCobblestone", "Mines one cobblestone block."),
        ]);
        let english = |word: &str| ["carve", "like", "boots", "craft", "give", "sheep"].contains(&word);
        assert_eq!(lexical.spelled("dimond boots pls", english), "dimond boots pls diamond");
        assert_eq!(lexical.spelled("craft me an arow", english), "craft me an arow arrow");
        assert_eq!(lexical.spelled("get cobbel", english), "get cobbel cobble");
        // Words the library, the tables or English have, short words, and words far from any are left alone.
        for query in ["craft diamond boots", "give a sheep a haircut", "get me a pig", "arrows", "carve an arow"] {
            let expected = if query.ends_with("arow") { format!("{query} arrow") } else { query.to_owned() };
            assert_eq!(lexical.spelled(query, english), expected);
        }
        assert_eq!(slips_between("cobbel", "cobble"), 1);
        assert_eq!(slips_between("potatos", "potatoes"), 1);
        assert_eq!(slips_between("dimond", "diamond"), 1);
    }

    #[test]
    fn the_action_asked_for_is_read_from_verbs_and_phrases() {
        assert_eq!(actions("make a smelter"), ["craft"]);
        assert_eq!(actions("Put down a crafting bench"), ["place"]);
        assert_eq!(actions("put my cobblestone away"), ["store", "deposit"], "a verb and its particle apart");
        assert_eq!(actions("put the iron armour on"), ["wear", "equip"], "skills named wear… or equip…");
        assert!(actions("put a torch on the wall").is_empty(), "on the wall is where, not putting on");
        assert_eq!(actions("put away my cobblestone"), ["store", "deposit"]);
        assert_eq!(actions("till the ground by the water"), ["hoe"]);
        assert_eq!(actions("feed the pigs some carrots"), ["breed"]);
        assert_eq!(actions("put on the iron armour"), ["wear", "equip"]);
        assert_eq!(actions("sow seeds"), ["plant"]);
        assert!(actions("cook the iron ore into bars").contains(&"smelt"));
        assert!(actions("iron hat").is_empty(), "no verb, no action");
        assert_eq!(actions("i want to mine iron"), ["mine"], "wanting to mine asks to mine");
        assert_eq!(actions("need a spade to dig sand"), actions("get"), "digging is what the spade is for");
        assert!(actions("find diamonds").contains(&"mine") && !actions("find diamonds").contains(&"craft"));
        assert!(
            actions("get me some wood").contains(&"craft") && !actions("get me some wood").contains(&"wear"),
            "get asks for what makes things"
        );
        assert!(actions("remake").is_empty(), "whole words only");
        assert_eq!(action_of("craftIronPickaxe"), "craft");
        assert_eq!(action_of("mine_wood_log"), "mine");
        assert_eq!(action_of(""), "");
    }

    #[test]
    fn a_request_naming_only_things_the_skills_make_asks_to_get_them() {
        let mut lexical = Lexical::new([
            ("craftIronHelmet", "craft iron helmet: Crafts an iron helmet."),
            ("wearIronArmor", "wear iron armor: Wears every piece of iron armour."),
            ("placeTorch", "place torch: Places a torch."),
        ]);
        assert_eq!(lexical.asked("iron hat"), actions("get"), "a hat is a helmet");
        assert_eq!(lexical.asked("an iron helmet please"), actions("get"));
        assert_eq!(lexical.asked("wear an iron helmet"), ["wear", "equip"], "the verb said wins");
        assert!(lexical.asked("light up this spot").is_empty(), "spot is no thing a skill is named after");
        assert!(lexical.asked("the").is_empty() && lexical.asked("").is_empty(), "no thing at all");
        lexical.remove("craftIronHelmet");
        assert!(lexical.asked("iron hat").is_empty(), "no skill is named after helmets any more");
        assert_eq!(lexical.asked("iron armour"), actions("get"), "wearIronArmor still is after iron armor");
        lexical.remove("wearIronArmor");
        assert!(lexical.asked("iron armour").is_empty());
        lexical.upsert("craftIronHelmet", "craft iron helmet: Crafts one.");
        lexical.upsert("craftIronHelmet", "craft iron helmet: Crafts one, again.");
        lexical.remove("craftIronHelmet");
        assert!(lexical.asked("iron hat").is_empty(), "a replaced skill is counted once");
    }

    #[test]
    fn words_split_at_camel_case_and_punctuation() {
        assert_eq!(words("craftIronPickaxe"), ["craft", "iron", "pickaxe"]);
        assert_eq!(words("I'm out of iron_ingot, 3 left!"), ["im", "out", "of", "iron", "ingot", "3", "left"]);
        assert_eq!(words("HTTPServer"), ["httpserver"]);
        assert!(words("  ¿?  ").is_empty());
    }

    #[test]
    fn queries_are_widened_by_display_names_and_players_words() {
        assert!(widen("build a workbench").ends_with("crafting table"));
        assert!(widen("a block of iron").contains("iron block"));
        // Whole words only: "benchmark" is not a bench.
        assert_eq!(widen("benchmark"), "benchmark");
        assert!(widen("flint and steel please").contains("flint"));
    }

    #[test]
    fn things_described_without_their_names_are_named() {
        let things = |query: &str| described(&words(query)).into_iter().map(|(_, adds)| adds).collect::<Vec<_>>();
        assert_eq!(things("make something to tell the time"), ["clock"]);
        assert_eq!(things("it tells the time"), ["clock"], "by stems: tells is tell");
        assert_eq!(things("gather wood from the white-barked trees"), ["birch"]);
        assert!(things("kill the tall black mob that teleports").contains(&"enderman"));
        assert!(things("the time").is_empty() && things("").is_empty(), "a part of a description is none");
        assert!(things("timepieces").contains(&"clock") && things("time-pieces").is_empty(), "whole words");
        let spans = described(&words("an iron hat for my head"));
        assert_eq!(spans, [(3..6, "helmet")], "where the description is said: for my head");
        assert!(glossed("a watch").ends_with(" clock") && glossed("a sword") == "a sword");
        assert!(widen("make a watch").contains("clock"), "the words' half reads the glossary too");
    }

    #[test]
    fn getting_something_from_an_animal_a_skill_kills_asks_to_kill_it() {
        let mut lexical = Lexical::new([
            ("killTwoPigs", "kill two pigs: Kills two pigs for porkchops."),
            ("cookPorkchops", "cook porkchops: Cooks raw porkchops in a furnace."),
            ("killThreeChickens", "kill three chickens: Kills chickens."),
        ]);
        let kill = actions("kill");
        assert_eq!(lexical.asked("get bacon from a pig"), kill);
        assert_eq!(lexical.asked("get some feathers from birds"), kill, "birds are chickens, by the glossary");
        assert_eq!(lexical.asked("get eggs from the chickens"), actions("get"), "eggs are laid, not killed for");
        assert!(lexical.asked("run from the pig").is_empty(), "fleeing is no kill");
        assert!(lexical.asked("walk from the pig to the chest").is_empty());
        assert_eq!(lexical.asked("get planks from two of them"), actions("get"), "a count in a name is no prey");
        assert_eq!(lexical.asked("cook the porkchops from the pig"), ["smelt", "cook"], "the verb said wins");
        assert_eq!(lexical.asked("get planks from the chest"), actions("get"), "a chest is no prey");
        assert_eq!(lexical.asked("from"), Vec::<&str>::new());
        assert!(lexical.asked("a sword to get bacon from a pig").is_empty(), "what the sword is for");
        lexical.remove("killTwoPigs");
        assert_eq!(lexical.asked("get bacon from a pig"), actions("get"), "no skill kills pigs now");
    }

    #[test]
    fn a_skill_named_after_the_thing_asked_for_comes_before_one_that_uses_it() {
        let lexical = Lexical::new([
            (
                "craftScaffolding",
                "craft scaffolding: Crafts scaffolding at a crafting table: places the crafting table, then crafts \
                 with the crafting table.",
            ),
            ("craftCraftingTable", "craft crafting table: Crafts one from planks."),
        ]);
        assert_eq!(lexical.search("a crafting table", 2)[0].0, "craftCraftingTable");
    }

    #[test]
    fn every_line_of_the_glossary_describes_a_thing() {
        let lines: Vec<&str> = include_str!("glossary.txt")
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .collect();
        for line in &lines {
            let (descriptions, thing) = line.split_once('=').unwrap_or_else(|| panic!("no `=` in {line:?}"));
            assert!(!thing.trim().is_empty(), "{line:?}: no thing");
            assert!(descriptions.split('|').all(|d| !words(d).is_empty()), "{line:?}: an empty description");
        }
        assert_eq!(glossary().things.len(), lines.len());
        assert!(lines.len() > 70, "{} lines", lines.len());
    }

    #[test]
    fn ordinary_requests_describe_nothing() {
        for request in [
            "put planks in the chest",
            "go to the river",
            "head home",
            "place blocks in a row",
            "put a block under my feet",
            "a torch above my head",
            "make a stone pickaxe",
            "bone meal for the crops",
            "shoot the skeleton",
            "watch out for creepers",
            "defend me",
            "climb the hill",
            "wait till night",
            "i fell in a hole",
            "hide from the zombie",
            "get ready",
        ] {
            assert!(described(&words(request)).is_empty(), "{request:?} described {:?}", described(&words(request)));
        }
        assert!(!glossed("craft a fishing rod").contains("stick"), "a rod is not a stick");
    }

    #[test]
    fn bm25_ranks_the_skill_sharing_the_rarest_words_first() {
        let lexical = Lexical::new([
            ("craftCraftingTable", "craft crafting table: Crafts a crafting table from 4 planks."),
            ("craftFurnace", "craft furnace: Crafts a furnace from 8 cobblestone."),
            ("mineWoodLog", "mine wood log: Mines logs from trees."),
        ]);
        let first = |query: &str| lexical.search(query, 3).first().map(|(name, _)| name.clone());
        assert_eq!(first("make a workbench").as_deref(), Some("craftCraftingTable"));
        assert_eq!(first("a smelter please").as_deref(), Some("craftFurnace"));
        assert_eq!(first("chopping trees").as_deref(), Some("mineWoodLog"));
        assert!(lexical.search("zzz", 3).is_empty());
    }
}
