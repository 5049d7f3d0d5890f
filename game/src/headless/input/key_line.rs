//! One line of held keys, `STEPS [KEY ...]`: the vocabulary, tokenizer and rule shared by input
//! scripts (`--input script:FILE`) and replays, so a line means the same in both and one is
//! refused by both or by neither.
//!
//! - Words are separated by any whitespace; columns are counted in characters, from 1.
//! - Keys are `up`, `down`, `left`, `right` and `attack`, each at most once, and never two on
//!   one axis (`up down` is a mistake to fix, not a standstill).
//! - Words quoted in a message are cut to [`MAX_QUOTED_CHARS`] characters with control and
//!   invisible characters escaped, so a message never carries raw bytes to a terminal.

use crate::sim::Input;

/// Most characters of a word quoted in a message.
pub const MAX_QUOTED_CHARS: usize = 40;

/// A key word: `up`, `down`, `left`, `right` or `attack`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyWord {
    Up,
    Down,
    Left,
    Right,
    Attack,
}

impl KeyWord {
    /// The words, for messages.
    pub(crate) const EXPECTED: &'static str = "up, down, left, right or attack";

    fn parse(word: &str) -> Option<Self> {
        Some(match word {
            "up" => KeyWord::Up,
            "down" => KeyWord::Down,
            "left" => KeyWord::Left,
            "right" => KeyWord::Right,
            "attack" => KeyWord::Attack,
            _ => return None,
        })
    }

    /// The word as written.
    pub(crate) fn name(self) -> &'static str {
        match self {
            KeyWord::Up => "up",
            KeyWord::Down => "down",
            KeyWord::Left => "left",
            KeyWord::Right => "right",
            KeyWord::Attack => "attack",
        }
    }

    /// The axis of `input` this key moves and its direction; `None` for attack.
    fn axis(self, input: &mut Input) -> Option<(&mut i8, i8)> {
        match self {
            KeyWord::Up => Some((&mut input.move_y, -1)),
            KeyWord::Down => Some((&mut input.move_y, 1)),
            KeyWord::Left => Some((&mut input.move_x, -1)),
            KeyWord::Right => Some((&mut input.move_x, 1)),
            KeyWord::Attack => None,
        }
    }

    /// The keys `input` holds, vertical axis first, then horizontal, then attack: what
    /// [`parse_keys`] reads back as `input`.
    pub(crate) fn held(input: Input) -> impl Iterator<Item = KeyWord> {
        let y = match input.move_y.signum() {
            -1 => Some(KeyWord::Up),
            1 => Some(KeyWord::Down),
            _ => None,
        };
        let x = match input.move_x.signum() {
            -1 => Some(KeyWord::Left),
            1 => Some(KeyWord::Right),
            _ => None,
        };
        [y, x, input.attack.then_some(KeyWord::Attack)]
            .into_iter()
            .flatten()
    }
}

/// The whitespace-separated words of `line`, each with its 1-based character column.
pub(crate) fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut column = 1;
    std::iter::from_fn(move || {
        let skipped = rest.len() - rest.trim_start().len();
        column += rest[..skipped].chars().count();
        rest = &rest[skipped..];
        if rest.is_empty() {
            return None;
        }
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(len);
        let at = column;
        column += word.chars().count();
        rest = tail;
        Some((at, word))
    })
}

/// The input the key words held on a line give.
///
/// # Errors
/// `(column, message)` at the first word that is no key, repeats one, or is a second key on
/// an axis.
pub(crate) fn parse_keys<'a>(
    words: impl IntoIterator<Item = (usize, &'a str)>,
) -> Result<Input, (usize, String)> {
    let mut input = Input::default();
    for (col, word) in words {
        let Some(key) = KeyWord::parse(word) else {
            return Err((
                col,
                format!(
                    "unknown key `{}` (expected {})",
                    excerpt(word),
                    KeyWord::EXPECTED
                ),
            ));
        };
        if key == KeyWord::Attack {
            if input.attack {
                return Err((col, "`attack` is held once per line".into()));
            }
            input.attack = true;
            continue;
        }
        match key.axis(&mut input) {
            None => {}
            Some((axis, _)) if *axis != 0 => {
                return Err((
                    col,
                    format!("`{word}`: this line already holds a key on that axis"),
                ));
            }
            Some((axis, value)) => *axis = value,
        }
    }
    Ok(input)
}

/// What [`parse_number`] expects of a step count.
pub(crate) const STEPS: &str = "a whole number of steps";

/// A whole number from 0 to `max`; `what` names it in the message ([`STEPS`], say).
///
/// # Errors
/// A message quoting (an excerpt of) the word.
pub(crate) fn parse_number(word: &str, max: u64, what: &str) -> Result<u64, String> {
    let bad = || format!("expected {what} from 0 to {max}, found `{}`", excerpt(word));
    // More than 20 digits is past u64 whatever they are: refused without parsing.
    if word.is_empty() || word.len() > 20 || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match word.parse::<u64>() {
        Ok(v) if v <= max => Ok(v),
        _ => Err(bad()),
    }
}

/// At most [`MAX_QUOTED_CHARS`] characters of `word`, for quoting in a message, escaped as
/// level errors escape text (control and invisible characters as `\u{..}`), with `...` when
/// cut.
pub(crate) fn excerpt(word: &str) -> String {
    let shown: String = word.chars().take(MAX_QUOTED_CHARS).collect();
    let mut out = crate::level::escape_for_display(&shown).into_owned();
    if word.chars().nth(MAX_QUOTED_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(line: &str) -> Result<Input, (usize, String)> {
        parse_keys(words(line))
    }

    #[test]
    fn words_split_on_any_whitespace_with_character_columns() {
        let found: Vec<(usize, &str)> = words(" é\tup  attack").collect();
        assert_eq!(found, [(2, "é"), (4, "up"), (8, "attack")]);
    }

    #[test]
    fn each_key_once_and_one_per_axis() {
        assert_eq!(
            keys("up right attack"),
            Ok(Input {
                move_x: 1,
                move_y: -1,
                attack: true
            })
        );
        assert_eq!(keys("up up").unwrap_err().0, 4);
        assert_eq!(keys("up down").unwrap_err().0, 4);
        assert_eq!(keys("left right").unwrap_err().0, 6);
        assert_eq!(keys("attack attack").unwrap_err().0, 8);
    }

    #[test]
    fn held_keys_read_back_as_the_same_input() {
        for move_x in -1..=1 {
            for move_y in -1..=1 {
                for attack in [false, true] {
                    let input = Input {
                        move_x,
                        move_y,
                        attack,
                    };
                    let line: Vec<&str> = KeyWord::held(input).map(KeyWord::name).collect();
                    assert_eq!(keys(&line.join(" ")), Ok(input));
                }
            }
        }
    }

    #[test]
    fn quoted_words_are_cut_and_escaped() {
        let (_, message) = keys("\u{1b}[2J\u{202e}x").unwrap_err();
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert!(message.contains("\\u{202e}"), "{message}");
        let long = parse_number(&"9".repeat(100_000), 10, STEPS).unwrap_err();
        assert!(long.len() < 200 && long.ends_with("...`"), "{long}");
    }
}
