//! Players' words for goals, as data: the verbs, shape nouns, size words, sides, number words and names for things
//! the goal reader knows, in English (`vocab/en.tsv`, the pivot) and in the other languages the bots answer in
//! (`vocab/{fr,de,es,vi,zh}.tsv`, each word mapped to English words). Growing the vocabulary is adding a line.
//!
//! This module turns a goal's text into the English words the reader reads ([`words`]) and says what each English
//! word is ([`kinds_of`]); it never decides what a goal means (that is `effect`'s). Text is compared folded: lower
//! case, accents off (`đặt` and `dat` are one word), and for German `ae`/`oe`/`ue` as the umlauts they stand for.

use std::{collections::HashMap, sync::LazyLock};

use unicode_normalization::UnicodeNormalization;

use crate::config::Lang;

/// What a word of the vocabulary is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A verb; its meaning is the effect it asks (`place`, `make`, `dig`, `go`, `store`, `give`, `surround`), or for
    /// another language the English verb.
    Verb,
    /// A player's name for a game id (`cobble` → `cobblestone`).
    Name,
    /// A number word; its meaning is the value in digits.
    Number,
    /// A shape noun; its meaning is the shape's kind (`line`, `column`, `wall`, `floor`, `ring`, `cube`, `hole`,
    /// `trench`, `area`, `around`).
    Shape,
    /// A size word; its meaning is the axis (`long`, `wide`, `high`, `deep`, or `by` between two sizes).
    Size,
    /// Words naming a side of a block; the meaning is the side (`next_to`, `on_top`, `under`).
    Side,
    /// Words that carry nothing the reader must account for (`the`, `please`, `on the ground`).
    Filler,
    /// Words that may open a polite goal and are dropped there (`can you`, `please`).
    Lead,
    /// Another language's words for English words (`de profondeur` → `deep`).
    Word,
    /// A word that says which one or how much (`not`, `each`, `left`, `all`): left unread, the owner is asked.
    Qualifier,
    /// A container's name (`chest`, `barrel`).
    Container,
    /// Words naming the bot's own spot (`where you stand`, `under your feet`): a hole there is dug under the bot.
    Here,
    /// An answer to the bot's question about a goal; its meaning is `yes` or `no` (`sure`, `nope`, `oui`).
    Answer,
}

impl Kind {
    fn parse(tag: &str) -> Option<Kind> {
        Some(match tag {
            "verb" => Kind::Verb,
            "name" => Kind::Name,
            "number" => Kind::Number,
            "shape" => Kind::Shape,
            "size" => Kind::Size,
            "side" => Kind::Side,
            "filler" => Kind::Filler,
            "lead" => Kind::Lead,
            "word" => Kind::Word,
            "qualifier" => Kind::Qualifier,
            "container" => Kind::Container,
            "here" => Kind::Here,
            "answer" => Kind::Answer,
            _ => return None,
        })
    }
}

/// One language's runs of words (folded, joined by single spaces), each with its meanings in the file's order.
#[derive(Default)]
struct Table {
    runs: HashMap<String, Vec<(Kind, String)>>,
    /// The most words (characters, for Chinese) one run has.
    longest: usize,
}

impl Table {
    /// Whether the table knows `run` as a word of `kind`.
    fn means(&self, run: &str, kind: Kind) -> bool {
        self.runs.get(run).is_some_and(|m| m.iter().any(|(k, _)| *k == kind))
    }
}

/// The one item `found` yields, `None` when it yields none or more than one (two names equally near).
fn only<T>(mut found: impl Iterator<Item = T>) -> Option<T> {
    let one = found.next()?;
    found.next().is_none().then_some(one)
}

const FILES: [(Lang, &str); 6] = [
    (Lang::En, include_str!("vocab/en.tsv")),
    (Lang::Fr, include_str!("vocab/fr.tsv")),
    (Lang::De, include_str!("vocab/de.tsv")),
    (Lang::Es, include_str!("vocab/es.tsv")),
    (Lang::Vi, include_str!("vocab/vi.tsv")),
    (Lang::Zh, include_str!("vocab/zh.tsv")),
];

static TABLES: LazyLock<HashMap<Lang, Table>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|(lang, text)| match parse(*lang, text) {
            Ok(table) => (*lang, table),
            // The files are compiled in and their every line is read by a unit test: this cannot happen in a build
            // that passed its tests, and an empty table only makes the reader read less.
            Err(why) => {
                tracing::error!("the {} vocabulary is malformed: {why}", lang.name());
                (*lang, Table::default())
            }
        })
        .collect()
});

/// Reads one vocabulary file: `KIND<TAB>WORDS[<TAB>MEANING]` a line, `#` comments and blank lines skipped.
fn parse(lang: Lang, text: &str) -> Result<Table, String> {
    let mut table = Table::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let (Some(tag), Some(words)) = (fields.next(), fields.next()) else {
            return Err(format!("line {}: not KIND<TAB>WORDS: {line:?}", n + 1));
        };
        let kind = Kind::parse(tag).ok_or_else(|| format!("line {}: no kind {tag:?}", n + 1))?;
        let meaning = fields.next().unwrap_or("").trim().to_owned();
        if meaning.is_empty()
            != matches!(kind, Kind::Filler | Kind::Lead | Kind::Qualifier | Kind::Container | Kind::Here)
        {
            return Err(format!(
                "line {}: a {tag} line {} a meaning: {line:?}",
                n + 1,
                if meaning.is_empty() { "needs" } else { "takes no" }
            ));
        }
        if kind == Kind::Answer && meaning != "yes" && meaning != "no" {
            return Err(format!("line {}: an answer means yes or no, not {meaning:?}", n + 1));
        }
        if kind == Kind::Number && meaning.parse::<u32>().is_err() {
            return Err(format!("line {}: the number {meaning:?} is not a whole number", n + 1));
        }
        let run: Vec<String> = tokens(&fold(lang, words), lang).into_iter().collect();
        if run.is_empty() {
            return Err(format!("line {}: no words", n + 1));
        }
        let size = if lang == Lang::Zh { run.iter().map(|t| t.chars().count()).sum() } else { run.len() };
        table.longest = table.longest.max(size);
        table.runs.entry(run.join(" ")).or_default().push((kind, meaning));
    }
    Ok(table)
}

/// `text` folded for comparing: lower case, accents and tone marks off, `đ` as `d`, `ß` as `ss`; for German, `ae`,
/// `oe` and `ue` as the umlauts they are typed for (`Saeule` and `Säule` are one word).
pub fn fold(lang: Lang, text: &str) -> String {
    let plain: String = text
        .to_lowercase()
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .map(|c| match c {
            'đ' => 'd',
            other => other,
        })
        .collect::<String>()
        .replace('ß', "ss");
    if lang == Lang::De { plain.replace("ae", "a").replace("oe", "o").replace("ue", "u") } else { plain }
}

/// The words of folded `text`: split at spaces and punctuation (an apostrophe too: `d'or`), keeping `_` inside ids,
/// a minus before a digit and `3x3`. Chinese is split into its characters and its runs of Latin letters and digits.
fn tokens(text: &str, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        if !word.is_empty() {
            out.push(std::mem::take(word));
        }
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let keep = c.is_alphanumeric()
            || c == '_'
            || (c == '-' && word.is_empty() && chars.peek().is_some_and(char::is_ascii_digit));
        if lang == Lang::Zh && c.is_alphanumeric() && !c.is_ascii() {
            flush(&mut word, &mut out);
            out.push(c.to_string());
        } else if keep {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The most words of one goal the vocabulary reads; a longer text is no reading.
pub const MOST_WORDS: usize = 64;

/// A goal's words as English words the reader reads, and the language they were read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    pub lang: Lang,
    /// English words: game ids as ids, numbers in digits, verbs as the reader's own (`knock down` → `dig`).
    pub words: Vec<String>,
    /// Words of another language the vocabulary does not know (none for English: its unknown words are the
    /// reader's to account for).
    pub unknown: Vec<String>,
}

impl Words {
    /// The English words as one line.
    pub fn text(&self) -> String {
        self.words.join(" ")
    }
}

/// `text` as English words, read in `lang` (see [`Words`]). `is_id` says whether a word is a game id, kept as it is
/// in any language; in another language than English, a word starting with a capital letter that the vocabulary
/// does not know is kept as a player's name (`Bob`), and so is a run of Latin letters in Chinese.
pub fn words(text: &str, lang: Lang, is_id: impl Fn(&str) -> bool) -> Words {
    let english = &TABLES[&Lang::En];
    if lang == Lang::En {
        let words = to_pivot(text, english, Lang::En, &is_id, &mut Vec::new(), true);
        return Words { lang, words, unknown: Vec::new() };
    }
    let mut unknown = Vec::new();
    let table = &TABLES[&lang];
    let german;
    let text = if lang == Lang::De {
        german = separable(text, table);
        german.as_str()
    } else {
        text
    };
    let mut foreign = to_pivot(text, table, lang, &is_id, &mut unknown, false);
    if lang == Lang::Vi {
        // Vietnamese gives a size before its number (`dài 3 cao 2`, long 3 high 2): English puts it after.
        let mut i = 0;
        while i + 1 < foreign.len() {
            if ["long", "high", "wide", "deep"].contains(&foreign[i].as_str()) && foreign[i + 1].parse::<u32>().is_ok()
            {
                foreign.swap(i, i + 1);
                i += 1;
            }
            i += 1;
        }
    }
    // The English words the other language's gave, read once more as English (`go stand on`, `a dozen`).
    // Misspelt English things are not looked for in another language's words (`viên`, a Vietnamese counter, is not
    // a misspelt vine).
    let words = to_pivot(&foreign.join(" "), english, Lang::En, &is_id, &mut Vec::new(), false);
    Words { lang, words, unknown }
}

/// German words put in the order the table reads them: a separable verb's particle, said last (`bau den Kies ab`,
/// mine the gravel), goes back after its verb when the table knows the two as one verb (`bau ab`); `mal` softening
/// a request (`bau mal …`) is dropped, and kept only between two numbers (`3 mal 3`, 3 by 3).
fn separable(text: &str, table: &Table) -> String {
    let written = tokens(text, Lang::De);
    let folded = tokens(&fold(Lang::De, text), Lang::De);
    if written.len() != folded.len() {
        return text.to_owned();
    }
    let is_verb = |run: &str| table.means(run, Kind::Verb);
    let mut order: Vec<usize> = (0..folded.len()).collect();
    if let Some(last) = folded.len().checked_sub(1)
        && let Some(verb) = (0..last).find(|&i| is_verb(&folded[i]))
        && is_verb(&format!("{} {}", folded[verb], folded[last]))
    {
        order.pop();
        order.insert(verb + 1, last);
    }
    let number = |i: Option<usize>| {
        i.and_then(|i| folded.get(i)).is_some_and(|w| w.parse::<u32>().is_ok() || table.means(w, Kind::Number))
    };
    order
        .iter()
        .enumerate()
        .filter(|&(at, &i)| {
            folded[i] != "mal" || (number(at.checked_sub(1).map(|a| order[a])) && number(order.get(at + 1).copied()))
        })
        .map(|(_, &i)| written[i].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One pass of `text` through `table`: the longest run of words the table knows at each place is replaced by its
/// first meaning (a verb only as the first word read, `dat` later is dirt), fillers and leads of other languages
/// dropped, leads of English dropped where they open the text. A verb found later is moved first when the words
/// before it are only numbers, names and fillers (`kannst du eine Reihe aus drei Glas bauen`, `3 dirt in a line,
/// place them`). Words of another language the table does not know go to `unknown`. With `respelt` (an English goal's
/// own words), a misspelt thing is read as the nearest name ([`respell`]).
fn to_pivot(
    text: &str,
    table: &Table,
    lang: Lang,
    is_id: &impl Fn(&str) -> bool,
    unknown: &mut Vec<String>,
    respelt: bool,
) -> Vec<String> {
    // Past what 64 words can take, nothing is read: a long text is cut before it is folded.
    let text = match text.char_indices().nth(MOST_WORDS * 32) {
        Some((at, _)) => text.get(..at).unwrap_or(text),
        None => text,
    };
    let mut folded: Vec<String> = tokens(&fold(lang, text), lang);
    // The words as written, for ids (`oak_planks`) and names (`Bob`), when the folding kept the split.
    let mut written: Vec<String> = tokens(text, lang);
    // No goal is this long: the rest is not read (and the reader does not take more words than this).
    folded.truncate(MOST_WORDS + 1);
    written.truncate(MOST_WORDS + 1);
    // German puts a verb's particle last: `mach die sandblöcke weg` (make … away) is `entferne die sandblöcke`, and
    // so is `mach den ofen kaputt` (make … broken).
    if lang == Lang::De
        && folded.len() > 2
        && folded.last().is_some_and(|w| w == "weg" || w == "kaputt")
        && ["mach", "mache", "machen", "raum", "raume", "schaff", "schaffe", "hau", "haue"]
            .contains(&folded[0].as_str())
    {
        folded.pop();
        folded[0] = "entferne".to_owned();
        if written.len() == folded.len() + 1 {
            written.pop();
            written[0] = "entferne".to_owned();
        }
    }
    // `a stack of dirt`: 64 of it (`a stack of 5 dirt` is five on top of each other).
    if lang == Lang::En {
        // The words as written follow only while they are the folded words one for one.
        let in_step = written.len() == folded.len();
        let mut k = 0;
        while k + 3 < folded.len() {
            // `half a stack of` is the table's own (32).
            let half = k > 0 && folded[k - 1] == "half";
            if folded[k..k + 3] == ["a", "stack", "of"]
                && !half
                && number(&folded[k + 3]).is_none()
                && !is_size_pair(&folded[k + 3])
            {
                folded.splice(k..k + 3, ["64".to_owned()]);
                if in_step {
                    written.splice(k..k + 3, ["64".to_owned()]);
                }
            }
            k += 1;
        }
    }
    let aligned = written.len() == folded.len();
    if respelt {
        respell(&mut folded, if aligned { Some(&mut written) } else { None }, table, is_id);
    }
    // Each word out, and whether it is known (any kind but a verb), a verb, or unknown.
    let mut out: Vec<(String, Option<Kind>)> = Vec::new();
    let mut verb: Option<(usize, usize)> = None;
    // Where the English of a Chinese side word (`旁边`, next to) starts in `out`, and its length.
    let mut sides: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < folded.len() {
        let as_written = if aligned { written[i].clone() } else { folded[i].clone() };
        let lower = as_written.to_lowercase();
        if is_id(&lower) || lower.parse::<i64>().is_ok() || is_size_pair(&lower) {
            out.push((lower, Some(Kind::Name)));
            i += 1;
            continue;
        }
        // Two or three words that are one id (`crafting table`, `stone bricks`, `gold ingots`), before any name
        // the table has for one of them (`table`).
        if lang == Lang::En
            && let Some((n, id)) = (2..=3.min(folded.len() - i)).rev().find_map(|n| {
                let joined = folded[i..i + n].join("_");
                let singular = joined.strip_suffix('s').map(str::to_owned);
                // `the cobblestone wall` a player speaks of is cobblestone standing as a wall.
                let shaped = TABLES[&Lang::En]
                    .runs
                    .get(&folded[i + n - 1])
                    .is_some_and(|m| m.iter().any(|(k, _)| *k == Kind::Shape));
                // `a spruce plank`: the game names the block in the plural.
                let plural = (!joined.ends_with('s')).then(|| format!("{joined}s"));
                let found = [Some(joined), singular, plural].into_iter().flatten().find(|j| is_id(j));
                found.filter(|_| !shaped).map(|id| (n, id))
            })
        {
            out.push((id, Some(Kind::Name)));
            i += n;
            continue;
        }
        let opening = out.is_empty();
        let found = (1..=table.longest.min(folded.len() - i)).rev().find_map(|n| {
            // In Vietnamese a word written with a capital after a run's first is a name, not the run's (`đưa cho
            // Minh`: to Minh; `đưa cho mình`: to me).
            let named = lang == Lang::Vi
                && aligned
                && written[i + 1..i + n].iter().any(|w| w.chars().next().is_some_and(char::is_uppercase));
            if named {
                return None;
            }
            let run = folded[i..i + n].join(" ");
            let key = if lang == Lang::Zh { spaced(&run.replace(' ', "")) } else { run };
            // Answers to a question are read by `answer`, never in a goal's words.
            let meanings: Vec<&(Kind, String)> =
                table.runs.get(&key)?.iter().filter(|(kind, _)| *kind != Kind::Answer).collect();
            // A second verb of more words than one is read as its words (`build a wall in cobblestone`: the wall,
            // not `wall in`).
            // So is an English one the words do not open with (`a wall in birch planks`).
            let later = verb.is_some() || (lang == Lang::En && !opening);
            if n > 1 && later && meanings.iter().all(|(kind, _)| *kind == Kind::Verb) {
                return None;
            }
            let verb = meanings.iter().find(|(kind, _)| *kind == Kind::Verb).filter(|_| opening);
            let meaning = verb.or_else(|| meanings.iter().find(|(kind, _)| *kind != Kind::Verb)).or(meanings.first())?;
            Some((n, (*meaning).clone()))
        });
        match found {
            Some((n, (kind, meaning))) => {
                match kind {
                    // A lead after a remark (`its getting dark, can you …`) opens the goal as well.
                    // So does one that ends it (`dump 2 string in the chest when u get a sec`).
                    Kind::Lead
                        if opening
                            || out.iter().all(|(_, kind)| *kind == Some(Kind::Filler))
                            || (lang == Lang::En && i + n == folded.len()) => {}
                    Kind::Filler | Kind::Lead if lang != Lang::En => {}
                    Kind::Filler
                    | Kind::Lead
                    | Kind::Shape
                    | Kind::Size
                    | Kind::Side
                    | Kind::Qualifier
                    | Kind::Container
                    | Kind::Here
                    | Kind::Answer => {
                        out.extend(folded[i..i + n].iter().map(|w| (w.clone(), Some(kind))));
                    }
                    Kind::Verb => {
                        let words: Vec<(String, Option<Kind>)> =
                            meaning.split_whitespace().map(|w| (w.to_owned(), Some(Kind::Verb))).collect();
                        if verb.is_none() {
                            verb = Some((out.len(), words.len()));
                        }
                        out.extend(words);
                    }
                    Kind::Name | Kind::Number | Kind::Word => {
                        if lang == Lang::Zh && SIDES.contains(&meaning.as_str()) {
                            sides.push((out.len(), meaning.split_whitespace().count()));
                        }
                        out.extend(meaning.split_whitespace().map(|w| (w.to_owned(), Some(kind))));
                    }
                }
                i += n;
            }
            // A player's English name for a thing, in another language's words (`un mur en cobble`).
            None if lang != Lang::En
                && let Some(id) = TABLES[&Lang::En].runs.get(&folded[i]).and_then(|meanings| {
                    meanings.iter().find(|(kind, _)| *kind == Kind::Name).map(|(_, id)| id.clone())
                }) =>
            {
                out.push((id, Some(Kind::Name)));
                i += 1;
            }
            None => {
                // A word no table knows right after `give`, or after its `to`, is whom to (`đưa cho bob 5 bánh mì`,
                // `donne 3 pommes à carol`), as a player's name may be typed in lower case.
                let giving = out.iter().any(|(w, k)| *k == Some(Kind::Verb) && w == "give");
                let handed = giving
                    && out.last().is_some_and(|(w, _)| w == "give" || w == "to")
                    && as_written.chars().count() >= 3
                    && as_written.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                let name = as_written.chars().next().is_some_and(char::is_uppercase)
                    || (lang == Lang::Zh && as_written.is_ascii())
                    || (lang != Lang::En && handed);
                if lang != Lang::En && !name {
                    unknown.push(folded[i].clone());
                }
                out.push((if name { as_written } else { lower }, None));
                i += 1;
            }
        }
    }
    if lang == Lang::Zh {
        verb = postpositions(&mut out, &sides, verb);
    }
    if let Some((at, len)) = verb
        && at > 0
        && out[..at].iter().all(|(word, kind)| match kind {
            Some(kind) => *kind != Kind::Verb,
            // A player's name, kept as written (`kannst du Lena 3 Goldbarren geben`).
            None => lang != Lang::En && word.chars().next().is_some_and(char::is_uppercase),
        })
    {
        // In English the words after the verb are its own (`on the south side of the chest put 5 dirt`): they move
        // with it, and what came first follows them.
        let end = if lang == Lang::En { out.len() } else { at + len };
        let moved: Vec<(String, Option<Kind>)> = out.drain(at..end).collect();
        out.splice(0..0, moved);
    }
    out.into_iter().map(|(word, _)| word).collect()
}

/// Words after which a player names a thing (`5 …`, `a …`, `of …`).
const BEFORE_A_THING: [&str; 15] =
    ["a", "an", "the", "some", "of", "more", "few", "my", "your", "these", "those", "in", "with", "using", "outta"];

/// Names of things misspelt where a thing is expected are read as the thing (`5 cobblestoen`, `a torhc`, `3
/// dimonds`): a word no table line and no game id knows, after a count, an article, `of` or a material, becomes the one game id
/// or vocabulary name within a slip of it (a letter missing, added, changed, or two swapped; two slips for words of
/// seven letters or more), starting with the same letter. A word before a thing or a shape is left alone (`a cool
/// tower`: an adjective), and so is a word two names are equally near (the reader's question then asks).
fn respell(folded: &mut [String], mut written: Option<&mut Vec<String>>, table: &Table, is_id: &impl Fn(&str) -> bool) {
    // A thing's plural is its name (`with torches`: some, how many not said).
    let plural_of_id = |w: &str| [w.strip_suffix('s'), w.strip_suffix("es")].into_iter().flatten().any(is_id);
    let known = |w: &str| {
        table.runs.contains_key(w)
            || is_id(w)
            || plural_of_id(w)
            || COMMON.contains(w)
            || w.parse::<f64>().is_ok()
            || is_size_pair(w)
    };
    let named = |w: &str, kinds: &[Kind]| {
        [Some(w), w.strip_suffix('s'), w.strip_suffix("es")].into_iter().flatten().any(|w| {
            (kinds.contains(&Kind::Name) && is_id(w))
                || table.runs.get(w).is_some_and(|m| m.iter().any(|(k, _)| kinds.contains(k)))
        })
    };
    let thing = |w: &str| named(w, &[Kind::Name, Kind::Shape, Kind::Container]);
    // The verb's place: the first word, or the first after words that only open a goal (`pls`, `can you`).
    let opening = |words: &[String]| {
        words
            .iter()
            .all(|w| table.runs.get(w).is_some_and(|m| m.iter().any(|(k, _)| matches!(k, Kind::Lead | Kind::Filler))))
            || table.runs.get(&words.join(" ")).is_some_and(|m| m.iter().any(|(k, _)| *k == Kind::Lead))
    };
    if let Some(i) = (0..folded.len().min(4)).find(|&i| !opening(&folded[..=i]))
        && opening(&folded[..i])
        && folded[i].chars().count() >= 4
        && !known(&folded[i])
        && let Some(verb) = nearest_verb(&folded[i], table)
    {
        tracing::debug!("goal words: {:?} read as the verb {verb:?}", folded[i]);
        if let Some(written) = written.as_deref_mut() {
            written[i] = verb.clone();
        }
        folded[i] = verb;
    }
    // A verb's second word misspelt (`go stnad on`): the verb of two words within a slip of it.
    if let Some(i) = (0..folded.len().min(4)).find(|&i| !opening(&folded[..=i]))
        && let Some(next) = folded.get(i + 1)
        && next.chars().count() >= 4
        && !known(next)
        && table.means(&folded[i], Kind::Verb)
        && let Some(second) = nearest_verb_after(&folded[i], next, table)
    {
        tracing::debug!("goal words: {next:?} read as the verb's {second:?}");
        if let Some(written) = written.as_deref_mut() {
            written[i + 1] = second.clone();
        }
        folded[i + 1] = second;
    }
    for i in 1..folded.len() {
        let word = folded[i].as_str();
        let before = folded[i - 1].as_str();
        // After a count, an article, `of`, a material (`oak plancks`) or a size (`3x3 platfrom`, `2 high cobblestne
        // wall`).
        let counted = BEFORE_A_THING.contains(&before)
            || before.parse::<u32>().is_ok()
            || named(before, &[Kind::Number, Kind::Name, Kind::Size])
            || is_size_pair(before)
            || ID_HEADS.contains(before);
        // A word before a thing or a shape is left alone (`a cool tower`), unless it is long (`cobblestne wall`): few
        // words of seven letters are a slip from a name.
        let modifies =
            folded.get(i + 1).is_some_and(|next| thing(next) && !next.starts_with("block")) && word.chars().count() < 7;
        // The first word of a thing of two (`cobbled deepslate`) is no slip.
        let head = ID_HEADS.contains(word);
        if word.chars().count() < 4 || known(word) || !counted || modifies || head {
            continue;
        }
        // The second word of a two-word thing (`iron ingtos`: `ingot` of `iron_ingot`); else a name; else a shape
        // noun a slip away where no name is (`platfrom`).
        let tail = ID_HEADS.contains(before).then(|| nearest_tail(before, word)).flatten();
        let name = || nearest_name(word);
        let shape = || (word.chars().count() >= 5).then(|| nearest_shape(word, table)).flatten();
        if let Some(meant) = tail.or_else(name).or_else(shape) {
            tracing::debug!("goal words: {word:?} after {before:?} read as {meant:?}");
            if let Some(written) = written.as_deref_mut() {
                written[i] = meant.clone();
            }
            folded[i] = meant;
        }
    }
}

/// The one verb of one word in `table` within a slip of `word` (`buidl`, `plase`), starting with the same letter.
fn nearest_verb(word: &str, table: &Table) -> Option<String> {
    only(table.runs.iter().filter(|(run, meanings)| {
        !run.contains(' ')
            && run.chars().count() >= 3
            && run.chars().next() == word.chars().next()
            && meanings.iter().any(|(k, _)| *k == Kind::Verb)
            && crate::skills::lexical::slips_between(word, run) <= 1
    }))
    .map(|(run, _)| run.clone())
}

/// The second word of the one verb of two words in `table` that starts with `head` and whose second word is within a
/// slip of `word` (`go stnad`: `stand` of `go stand`).
fn nearest_verb_after(head: &str, word: &str, table: &Table) -> Option<String> {
    only(table.runs.iter().filter_map(|(run, meanings)| {
        let (first, second) = run.split_once(' ')?;
        (first == head
            && !second.contains(' ')
            && meanings.iter().any(|(k, _)| *k == Kind::Verb)
            && crate::skills::lexical::slips_between(word, second) <= 1)
            .then_some(second)
    }))
    .map(str::to_owned)
}

/// The one thing's name within a slip or two of `word` (see [`respell`]), its plural read as the singular.
fn nearest_name(word: &str) -> Option<String> {
    let stems = [Some(word), word.strip_suffix("es"), word.strip_suffix('s')];
    let limit = if word.chars().count() >= 7 { 2 } else { 1 };
    let mut best: Option<(usize, &str, &str)> = None;
    let mut tied = false;
    for stem in stems.into_iter().flatten().filter(|s| s.chars().count() >= 3) {
        for (name, meaning) in THING_NAMES.iter() {
            if name.chars().next() != stem.chars().next() || name.len().abs_diff(stem.len()) > limit {
                continue;
            }
            let d = crate::skills::lexical::slips_between(stem, name);
            if d > limit {
                continue;
            }
            match best {
                Some((b, _, m)) if d > b || (d == b && m == meaning) => {}
                Some((b, ..)) if d == b => tied = true,
                _ => {
                    best = Some((d, name, meaning));
                    tied = false;
                }
            }
        }
    }
    best.filter(|_| !tied).map(|(_, name, _)| name.to_owned())
}

/// The one shape noun of one word (`platform`, `pillar`) within a slip of `word`, starting with the same letter.
fn nearest_shape(word: &str, table: &Table) -> Option<String> {
    let mut near = table.runs.iter().filter(|(run, meanings)| {
        !run.contains(' ')
            && run.chars().count() >= 5
            && run.chars().next() == word.chars().next()
            && meanings.iter().any(|(kind, _)| *kind == Kind::Shape)
            && crate::skills::lexical::slips_between(word, run) == 1
    });
    let (run, _) = near.next()?;
    near.next().is_none().then(|| run.clone())
}

/// The rest of the one game id of two words that starts with `head` and whose second word is within a slip of
/// `word` or of `word` read as a plural (`ingtos` after `iron`: `ingot`).
fn nearest_tail(head: &str, word: &str) -> Option<String> {
    let stems: Vec<&str> =
        [Some(word), word.strip_suffix('s'), word.strip_suffix("es")].into_iter().flatten().collect();
    only(ITEM_IDS.iter().filter_map(|id| {
        let (first, tail) = id.split_once('_')?;
        (first == head
            && !tail.contains('_')
            && stems.iter().any(|s| crate::skills::lexical::slips_between(s, tail) <= 1))
        .then_some(tail)
    }))
    .map(str::to_owned)
}

/// The game's item ids, without `minecraft:`.
static ITEM_IDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    use azalea::registry::builtin::ItemKind;
    (0..)
        .map_while(|id: u32| ItemKind::try_from(id).ok())
        .map(|kind| kind.to_string().trim_start_matches("minecraft:").to_owned())
        .collect()
});

/// Common English words (`vocab/common_en.txt`): each a word the player meant, never read as a slip for a name, a
/// shape or a verb (`keep the middle empty` is not kelp, `will ya` not a wall).
static COMMON: LazyLock<std::collections::HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("vocab/common_en.txt").lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
});

/// Every one-word name of a thing the reader takes: the game's item ids without `_` and the English vocabulary's
/// one-word names, each with what it means (an id).
static THING_NAMES: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let ids = ITEM_IDS.iter().map(|id| (id.clone(), id.clone()));
    // Shape nouns too (`a pilar of dirt`), by their own word.
    let names = TABLES[&Lang::En].runs.iter().filter(|(run, _)| !run.contains(' ')).filter_map(|(run, meanings)| {
        meanings.iter().find_map(|(k, id)| match k {
            Kind::Name => Some((run.clone(), id.clone())),
            Kind::Shape if run.chars().count() >= 4 => Some((run.clone(), run.clone())),
            _ => None,
        })
    });
    ids.filter(|(id, _)| !id.contains('_')).chain(names).collect()
});

/// The first words of the game's ids of more words than one (`oak` of `oak_planks`): materials.
static ID_HEADS: LazyLock<std::collections::HashSet<String>> =
    LazyLock::new(|| ITEM_IDS.iter().filter_map(|id| id.split_once('_').map(|(head, _)| head.to_owned())).collect());

/// The English of the words that name a side of a block.
const SIDES: [&str; 7] = [
    "next to",
    "on top of",
    "under",
    "on the north side of",
    "on the south side of",
    "on the east side of",
    "on the west side of",
];

/// Chinese sides put in English order: a side word follows the block it is a side of. Before a thing it says
/// which one (`工作台旁边的箱子`, the crafting table's side's chest: `chest next to crafting_table`); anywhere else it
/// says where, and where that comes before the verb it goes to the end (`在金块上面放一个火把`, at the gold block's
/// top put a torch: `place a torch on top of gold_block`). `verb` is where the verb is, moved with it.
fn postpositions(
    out: &mut Vec<(String, Option<Kind>)>,
    sides: &[(usize, usize)],
    mut verb: Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    // One side at a time, from the last, so the earlier ones' places hold.
    for &(at, len) in sides.iter().rev() {
        let named = |i: usize, out: &[(String, Option<Kind>)]| out.get(i).is_some_and(|(_, k)| *k == Some(Kind::Name));
        if at == 0 || !named(at - 1, out) {
            continue;
        }
        let block = at - 1;
        if named(at + len, out) {
            // `A side B` → `B side A`.
            let thing = out.remove(at + len);
            let of = out.remove(block);
            out.insert(block, thing);
            out.insert(at + len, of);
        } else {
            // `A side` → `side A`; before the verb, at the end.
            let of = out.remove(block);
            out.insert(block + len, of);
            if let Some((v, v_len)) = verb
                && v > block
            {
                let phrase: Vec<(String, Option<Kind>)> = out.drain(block..block + len + 1).collect();
                out.extend(phrase);
                verb = Some((v - (len + 1), v_len));
            }
        }
    }
    verb
}

/// Whether `word` is two sizes written as one (`3x3`).
fn is_size_pair(word: &str) -> bool {
    sides(word).is_some_and(|sides| sides.len() == 2)
}

/// The sides a word like `2x2` or `3x3x3` gives, two or more.
pub fn sides(word: &str) -> Option<Vec<u32>> {
    let sides: Vec<u32> = word.split('x').map(|n| n.parse::<u32>().ok()).collect::<Option<_>>()?;
    (sides.len() >= 2).then_some(sides)
}

/// `text`, written in another language than English, read through the vocabulary of the language whose words it
/// uses: the reading with no unknown words, or the fewest (`None` when every language leaves most words unknown).
pub fn foreign(text: &str, is_id: impl Fn(&str) -> bool) -> Option<Words> {
    // Chinese is read only where Chinese characters are written (its reading keeps Latin words as names).
    let han = text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    Lang::ALL
        .into_iter()
        .filter(|lang| *lang != Lang::En && (*lang != Lang::Zh || han))
        .map(|lang| words(text, lang, &is_id))
        .filter(|w| w.unknown.len() * 2 < w.words.len().max(1))
        .min_by_key(|w| w.unknown.len())
}

/// Whether `word` is a slip away from a one-word shape noun or size of English (`lin`, `tal`, `squre`): a misspelt
/// word that may say what shape or how big.
pub fn near_a_shape(word: &str) -> bool {
    word.chars().count() >= 3
        && !TABLES[&Lang::En].runs.contains_key(word)
        && TABLES[&Lang::En].runs.iter().any(|(run, meanings)| {
            !run.contains(' ')
                && run.chars().count() >= 3
                && run.chars().next() == word.chars().next()
                && meanings.iter().any(|(k, _)| matches!(k, Kind::Shape | Kind::Size))
                && crate::skills::lexical::slips_between(word, run) <= 1
        })
}

/// Whether English `text` holds only words that open or soften a goal (`brb`, `ok so`, `thanks`): no step.
pub fn says_nothing(text: &str) -> bool {
    let table = &TABLES[&Lang::En];
    let words = tokens(&fold(Lang::En, text), Lang::En);
    let mut i = 0;
    while i < words.len() {
        let Some(n) = (1..=table.longest.min(words.len() - i)).rev().find(|&n| {
            table.runs.get(&words[i..i + n].join(" ")).is_some_and(|m| {
                m.iter().any(|(k, _)| matches!(k, Kind::Filler | Kind::Lead))
                    && m.iter().all(|(k, _)| matches!(k, Kind::Filler | Kind::Lead | Kind::Answer))
            })
        }) else {
            return false;
        };
        i += n;
    }
    !words.is_empty()
}

/// An owner's answer to a question about a goal: yes or no, and the words after it (`no, make it 3 by 3`), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub yes: bool,
    pub rest: String,
}

/// `text` as an answer to a question (`yes`, `sure, do it`, `nope`, `non merci`, `không, đặt 9 đất`): its first
/// clause (up to a comma or a full stop) is an answer word of some language and, after it, only more answer words,
/// fillers and leads. `None` for anything else (the goal again in other words, or chat).
pub fn answer(text: &str) -> Option<Answer> {
    /// The first clause of `text` as an answer (`Some(None)` when it holds only fillers), and the text after it.
    fn clause(text: &str) -> Option<(Option<bool>, &str)> {
        let (first, rest) = match text.find([',', '.', '!', ';', ':', '，', '。', '！', '；']) {
            Some(at) => (&text[..at], text[at..].trim_start_matches(|c: char| !c.is_alphanumeric())),
            None => (text, ""),
        };
        Lang::ALL.into_iter().find_map(|lang| clause_answer(first, lang)).map(|yes| (yes, rest))
    }
    let (Some(yes), mut rest) = clause(text)? else { return None };
    // More answer clauses or thanks (`sure, do it`, `ja, bitte`) say nothing more.
    while let Some((_, more)) = clause(rest).filter(|_| !rest.is_empty()) {
        rest = more;
    }
    Some(Answer { yes, rest: rest.trim().to_owned() })
}

/// Whether `clause`, in `lang`, is an answer: yes (`Some(true)`) or no (`Some(false)`), from its first run of
/// words, or only fillers and leads (`None`); not an answer at all (`None` outside).
fn clause_answer(clause: &str, lang: Lang) -> Option<Option<bool>> {
    let table = &TABLES[&lang];
    let words = tokens(&fold(lang, clause), lang);
    let run_of = |i: usize| {
        let longest = table.longest.min(words.len() - i);
        (1..=longest).rev().find_map(|n| table.runs.get(&words[i..i + n].join(" ")).map(|kinds| (n, kinds)))
    };
    let mut answer = None;
    let mut i = 0;
    while i < words.len() {
        let (n, kinds) = run_of(i)?;
        let said = kinds.iter().find(|(kind, _)| *kind == Kind::Answer).map(|(_, meaning)| meaning == "yes");
        let filler = kinds.iter().any(|(kind, _)| matches!(kind, Kind::Filler | Kind::Lead));
        match (answer, said) {
            (None, Some(yes)) if i == 0 => answer = Some(yes),
            (_, Some(_)) => {}
            (_, None) if filler => {}
            (_, None) => return None,
        }
        i += n;
    }
    (!words.is_empty()).then_some(answer)
}

/// Whether `text` (in any language the bot answers in) opens with a verb the reader knows, once read: words that
/// ask something of the world rather than chat.
pub fn asks_a_change(text: &str, is_id: impl Fn(&str) -> bool) -> bool {
    let opens = |words: &Words| words.words.first().is_some_and(|w| is(w, Kind::Verb));
    opens(&words(text, Lang::En, &is_id)) || foreign(text, &is_id).is_some_and(|words| opens(&words))
}

/// The numbers `words` say, in the order said (digits and number words alike).
pub fn numbers(words: &Words) -> Vec<u32> {
    words
        .words
        .iter()
        // `2x2`, `3x3x3`: each side is a number the words give.
        .flat_map(|w| sides(w).or_else(|| w.parse::<u32>().ok().map(|n| vec![n])).unwrap_or_default())
        .collect()
}

/// What a translation of `words` must keep of them: every number said (as digits), `all` when they ask for all of a
/// thing (`都`, `todos`, `every`), which a translation that names the thing alone turns into one of it, and the deed
/// their opening verb asks ([`deed`]).
pub fn kept(words: &Words) -> Vec<String> {
    let mut kept: Vec<String> = numbers(words).iter().map(u32::to_string).collect();
    if words.words.iter().any(|w| ALL.contains(&w.as_str())) {
        kept.push("all".to_owned());
    }
    kept.extend(deed(words).map(str::to_owned));
    kept
}

/// The deed `words`' opening verb asks when it puts a thing somewhere — `place` (put, store, with a where: a side, a
/// container or a shape) or `give` —, which a translation must ask too: `cho mình 4 ổ bánh mì` made `craft 4
/// bread`, `stell ne werkbank … neben den eisenblock` made `craft crafting_table west of iron`, and each was claimed
/// as done, the thing counted in the inventory, with nothing given or placed. A place verb with no where may ask for a
/// thing to be made (`baue eine Holzspitzhacke`), digging may be said as mining and going as fetching, and `make` may
/// be crafting (`fais 4 bâtons`): no deed is kept for them.
fn deed(words: &Words) -> Option<&'static str> {
    let verb = meaning(words.words.first()?, Kind::Verb)?;
    let somewhere = (0..words.words.len()).any(|i| {
        [Kind::Side, Kind::Container, Kind::Shape].into_iter().any(|kind| run_at(&words.words, i, kind).is_some())
            || words.words[i] == "chest"
    });
    match verb.split_whitespace().next()? {
        "place" | "put" | "build" | "store" | "surround" if somewhere => Some("place"),
        "give" | "bring" => Some("give"),
        _ => None,
    }
}

/// English words that ask for all of a thing.
const ALL: [&str; 5] = ["all", "every", "each", "entire", "whole"];

/// A Chinese run as the table keys it: its characters one a word.
fn spaced(run: &str) -> String {
    run.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

/// What an English word (or run, joined by spaces) is in the vocabulary, with its meanings.
pub fn kinds_of(run: &str) -> &'static [(Kind, String)] {
    TABLES[&Lang::En].runs.get(run).map_or(&[], Vec::as_slice)
}

/// The English meaning of `run` as `kind`, if it has one (`kind_meaning("tall", Kind::Size)` → `high`).
pub fn meaning(run: &str, kind: Kind) -> Option<&'static str> {
    kinds_of(run).iter().find(|(k, _)| *k == kind).map(|(_, m)| m.as_str())
}

/// The longest English run of `kind` starting at `words[i]`, with its meaning and how many words it takes.
pub fn run_at(words: &[String], i: usize, kind: Kind) -> Option<(usize, &'static str)> {
    let longest = TABLES[&Lang::En].longest.min(words.len().saturating_sub(i));
    (1..=longest).rev().find_map(|n| meaning(&words[i..i + n].join(" "), kind).map(|m| (n, m)))
}

/// Whether the English `word` is of `kind` in the vocabulary.
pub fn is(word: &str, kind: Kind) -> bool {
    kinds_of(word).iter().any(|(k, _)| *k == kind)
}

/// The value of a number word or digits (`12`, `twelve`).
pub fn number(word: &str) -> Option<u32> {
    word.parse().ok().or_else(|| meaning(word, Kind::Number)?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_id(word: &str) -> bool {
        [
            "dirt",
            "cobblestone",
            "oak_planks",
            "chest",
            "gold_block",
            "bread",
            "stone",
            "torch",
            "glass",
            "iron_ingot",
            "gold_ingot",
        ]
        .contains(&word)
    }

    fn read(text: &str, lang: Lang) -> (String, Vec<String>) {
        let words = words(text, lang, is_id);
        (words.text(), words.unknown)
    }

    #[test]
    fn a_translation_keeps_the_numbers_the_all_and_the_deed_asked() {
        let of = |text: &str, lang: Lang| kept(&words(text, lang, is_id));
        assert_eq!(of("cho mình 4 ổ bánh mì với", Lang::Vi), ["4", "give"]);
        assert_eq!(of("craft 4 bread", Lang::En), ["4"]);
        assert_eq!(of("stell ne werkbank direkt westlich neben den eisenblock", Lang::De), ["place"]);
        assert_eq!(of("put a crafting table west of the iron block", Lang::En), ["place"]);
        assert_eq!(of("mete 5 tablones de roble en el cofre", Lang::Es), ["5", "place"]);
        assert_eq!(of("cava toda la arena", Lang::Es), ["all"]);
        // `make`, and a place verb with no where, may be crafting: no deed a translation must keep.
        assert_eq!(of("fais 4 bâtons", Lang::Fr), ["4"]);
        assert!(of("baue eine Holzspitzhacke", Lang::De).is_empty());
    }

    #[test]
    fn answers_to_a_question_are_yes_no_or_the_goal_again() {
        let said = |text: &str| answer(text).map(|a| (a.yes, a.rest));
        for yes in [
            "yes",
            "Yes please",
            "sure, do it",
            "ok",
            "yeah go ahead",
            "oui",
            "d'accord",
            "ja, bitte",
            "sí",
            "vale",
            "ừ",
            "duoc",
            "好的",
            "是",
        ] {
            assert_eq!(said(yes), Some((true, String::new())), "{yes}");
        }
        for no in ["no", "Nope.", "no thanks", "never mind", "non merci", "nein", "nee", "no, gracias", "không", "算了"]
        {
            assert_eq!(said(no), Some((false, String::new())), "{no}");
        }
        assert_eq!(said("no, make it 3 by 3"), Some((false, "make it 3 by 3".to_owned())));
        assert_eq!(said("nein, bau eine Mauer"), Some((false, "bau eine Mauer".to_owned())));
        assert_eq!(said("不，放九块泥土"), Some((false, "放九块泥土".to_owned())));
        // The goal again in other words, and chat, are no answers.
        for other in
            ["put down a 3 by 3 square of dirt", "no way that worked", "yes I am here", "lol", "", "sure is hot"]
        {
            assert_eq!(said(other), None, "{other}");
        }
        // Answer words never read as a goal's words.
        assert_eq!(read("dig a hole and leave it open", Lang::En).0, "dig a hole and leave it open");
        assert_eq!(read("pon 3 tierra si puedes", Lang::Es).1, vec!["si"]);
    }

    #[test]
    fn every_line_of_every_file_is_read() {
        for (lang, text) in FILES {
            let table = parse(lang, text).unwrap_or_else(|why| panic!("{}: {why}", lang.name()));
            assert!(!table.runs.is_empty(), "{}", lang.name());
        }
        assert!(parse(Lang::En, "verb\tplace").is_err(), "a verb needs its meaning");
        assert!(parse(Lang::En, "number\tzillion\tlots").is_err());
        assert!(parse(Lang::En, "noun\tthing\tthing").is_err());
    }

    #[test]
    fn words_fold_their_accents_and_german_spellings() {
        assert_eq!(fold(Lang::Vi, "Đặt bốn khối đất"), "dat bon khoi dat");
        assert_eq!(fold(Lang::De, "Säule"), fold(Lang::De, "Saeule"));
        assert_eq!(fold(Lang::Fr, "carré"), "carre");
    }

    #[test]
    fn english_verbs_names_and_numbers_become_the_reader_s_own() {
        assert_eq!(read("knock down the stone", Lang::En).0, "dig the stone");
        assert_eq!(read("can you put down a dozen cobble please", Lang::En).0, "place a 12 cobblestone");
        assert_eq!(read("dig a hole three blocks deep", Lang::En).0, "dig a hole 3 blocks deep");
        assert_eq!(read("Place dirt at -7 64 2", Lang::En).0, "place dirt at -7 64 2");
    }

    #[test]
    fn a_misspelt_thing_after_a_count_an_article_or_a_material_is_read_as_the_thing() {
        assert_eq!(read("put 5 cobblestoen in the chest", Lang::En).0, "place 5 cobblestone in the chest");
        assert_eq!(read("place a torhc on the gold block", Lang::En).0, "place a torch on the gold_block");
        assert_eq!(read("give Bob 2 bred", Lang::En).0, "give Bob 2 bread");
        assert_eq!(read("stack 4 oak plancks", Lang::En).0, "place 4 oak_planks");
        // Plurals of a misspelt name, and a two-slip miss in a long word.
        assert_eq!(read("build a wall of dirst", Lang::En).0, "place a wall of dirt");
        assert!(read("fill the chest with 3 cobbelstones", Lang::En).0.contains("3 cobblestone"));
        // Not in another language's words: a Vietnamese counter is no misspelt vine.
        assert!(read("mets 3 vien dans le coffre", Lang::Fr).0.contains("3 vien"));
    }

    #[test]
    fn a_misspelt_verb_where_the_verb_goes_is_read_as_the_verb() {
        assert_eq!(read("buidl a dirt wall", Lang::En).0, "place a dirt wall");
        assert_eq!(read("pls excavte a hole 2 deep", Lang::En).0, "dig a hole 2 deep");
        // Only where the verb goes, and only a slip away.
        assert_eq!(read("place a buidl", Lang::En).0, "place a buidl");
        assert_eq!(read("bilt 3 dirt", Lang::En).0, "bilt 3 dirt");
    }

    #[test]
    fn a_verb_s_second_word_and_a_two_word_thing_s_second_word_are_respelt() {
        assert_eq!(read("go stnad on the gold block", Lang::En).0, "go on the gold_block");
        assert_eq!(read("give Bob 3 iron ingtos", Lang::En).0, "give Bob 3 iron_ingot");
        assert_eq!(read("put 2 gold ignots in the chest", Lang::En).0, "place 2 gold_ingot in the chest");
        // Only within a slip, and only the one id that fits.
        assert_eq!(read("give Bob 3 iron things", Lang::En).0, "give Bob 3 iron things");
    }

    #[test]
    fn german_separable_verbs_and_a_softening_mal_are_read_as_meant() {
        // `bau … ab` is to mine (abbauen), not to build; `mal` asks softly, and says `by` only between numbers.
        assert_eq!(read("bau mal den ganzen Kies hier in der Nähe ab", Lang::De).0, "dig all the gravel");
        assert_eq!(read("grab mal den Sand aus", Lang::De).0, "dig sand");
        assert_eq!(read("bau mal eine Plattform aus Erde, 3 mal 3", Lang::De).0, "place a platform of dirt 3 by 3");
    }

    #[test]
    fn a_lower_case_name_after_give_in_another_language_is_a_player() {
        let (words, unknown) = read("dua cho bob 5 cai banh mi nhe", Lang::Vi);
        assert_eq!((words.as_str(), unknown.as_slice()), ("give bob 5 bread", &[] as &[String]));
        // Elsewhere a word no table knows is still unknown.
        assert_eq!(read("dat 4 khoi dat thanh mot xyzzy", Lang::Vi).1, vec!["xyzzy"]);
    }

    #[test]
    fn words_that_ask_nothing_are_no_step() {
        for nothing in ["brb", "ok so", "thanks", "pls"] {
            assert!(says_nothing(nothing), "{nothing}");
        }
        for something in ["dig a hole", "brb dig", "", "yes"] {
            assert!(!says_nothing(something), "{something}");
        }
    }

    #[test]
    fn a_word_before_a_thing_or_far_from_every_name_is_left_as_written() {
        // An adjective before a thing or a shape, however near a name it is (`cool` and `coal`, `dirty` and `dirt`).
        assert_eq!(read("build a cool tower", Lang::En).0, "place a cool tower");
        assert_eq!(read("give Bob 2 dirty torches", Lang::En).0, "give Bob 2 dirty torches");
        // Another first letter (`nice`, `ice`), a word too short to tell, a word after no count or article.
        assert_eq!(read("place a nice torch", Lang::En).0, "place a nice torch");
        assert_eq!(read("dig 2 dit", Lang::En).0, "dig 2 dit");
        assert_eq!(read("place dirst", Lang::En).0, "place dirst");
    }

    #[test]
    fn other_languages_are_read_into_english_words() {
        assert_eq!(read("creuse un trou de trois blocs de profondeur", Lang::Fr).0, "dig a hole 3 deep");
        assert_eq!(read("kannst du eine Reihe aus drei Glas bauen?", Lang::De).0, "place a row of 3 glass");
        assert_eq!(read("guarda doce rocas en el cofre", Lang::Es).0, "store 12 cobblestone into the chest");
        assert_eq!(read("dat 4 khoi dat thanh mot hang", Lang::Vi).0, "place 4 dirt in a row");
        assert_eq!(read("cho Bob 2 cai banh mi", Lang::Vi).0, "give Bob 2 bread");
        assert_eq!(read("挖一个3格深的洞", Lang::Zh).0, "dig a 3 deep hole");
        assert_eq!(read("给Bob两个面包", Lang::Zh).0, "give Bob 2 bread");
        // Counted shapes, a German verb split around its object, a side named by its neighbour, `ue` for `ü`.
        assert_eq!(read("xay 1 cai cot bang dat cao 3 block nha", Lang::Vi).0, "place 1 pillar of dirt 3 high");
        assert_eq!(read("bo 6 cuc da cuoi vao ruong giup minh", Lang::Vi).0, "place 6 cobblestone into chest");
        assert_eq!(read("xay mot buc tuong bang da dai 3 cao 2", Lang::Vi).0, "place a wall of stone 3 long 2 high");
        assert_eq!(
            read("mauer dich bitte mit Erde ein, auf allen vier Seiten", Lang::De).0,
            "surround yourself with dirt a on all 4 sides"
        );
        assert_eq!(read("stell dich mal auf den Goldblock", Lang::De).0, "go on the gold_block");
        assert_eq!(
            read("Leg bitte 7 Brot in die Truhe neben dem Buecherregal", Lang::De).0,
            "place 7 bread into the chest next to bookshelf"
        );
        assert_eq!(read("quita la arena que hay alrededor tuyo", Lang::Es).0, "dig sand around you");
        let (_, unknown) = read("construis une jolie maison", Lang::Fr);
        assert_eq!(unknown, ["jolie", "maison"]);
    }

    /// A player's English name for a thing is read in another language's words; a second verb of several words is
    /// read as its words (`un mur en` is a wall of, not `wall in`).
    #[test]
    fn english_names_and_a_later_verb_s_words_in_another_language() {
        let (text, unknown) = read("tu peux construire un mur en cobble de 4 de long et 2 de haut ?", Lang::Fr);
        assert_eq!((text.as_str(), unknown.len()), ("place a wall in cobblestone 4 long and 2 high", 0));
    }

    /// Chinese puts a side after the block it is a side of: read in English order, before a thing (which one) and
    /// before the verb (where).
    #[test]
    fn chinese_sides_are_read_in_english_order() {
        assert_eq!(read("在金块上面放一个火把", Lang::Zh).0, "place a torch on top of gold_block");
        assert_eq!(read("把8个面包放进泥土旁边的箱子里", Lang::Zh).0, "store 8 bread chest next to dirt");
        assert_eq!(read("在泥土旁边放一个圆石", Lang::Zh).0, "place a cobblestone next to dirt");
        assert_eq!(read("把5个圆石放进箱子里", Lang::Zh).0, "store 5 cobblestone chest");
    }
}
