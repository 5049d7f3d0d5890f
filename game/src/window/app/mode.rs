//! The game's mode: which screen is up and takes the input, with the state only that screen
//! has (the title's rows and its new-level form, the settings menu and what it is over, the
//! pause, a replay's speed). One value, so combinations no screen has (editing on the title,
//! a pause screen over a replay) cannot be written down.
//!
//! Two things stay outside on purpose, because they outlive every mode:
//! - the editor's session on the level (`App::edits`): its unsaved edits are kept through
//!   playtests, the settings and the title, until another level file is opened;
//! - whether the running game was built from unsaved edits (`Run::playtest_unsaved`): it
//!   describes the simulation, which keeps running behind the title or the settings, and is
//!   set when a game starts, not when a screen opens.
//!
//! A scripted run (`App::script`: its length and screenshot) is orthogonal too: it goes
//! through the same modes as a player.

use super::playback::Playback;
use super::screens::TitleEntry;
use crate::input::menu::SettingsMenu;
use crate::window::editor::edit_form::Form;

/// What the game is showing and who takes the input.
#[derive(Debug)]
pub(super) enum Mode {
    /// The level list.
    Title(TitleScreen),
    /// The settings, over the title or the paused game, which closing them returns to.
    Settings { menu: SettingsMenu, over: Over },
    /// A level being played, paused or not (the room-cleared screen shows over it).
    Playing { paused: bool },
    /// The editor on the session's level (`App::edits`); the simulation stands still.
    Editing,
    /// Watching a replay, the only mode of a `replay` run: no title, editor or settings.
    Playback { playback: Playback, paused: bool },
}

/// The title screen's state.
#[derive(Debug)]
pub(super) struct TitleScreen {
    /// An index into `Records::levels`.
    pub selected: usize,
    /// The rows, read when the title opens.
    pub entries: Vec<TitleEntry>,
    /// The "new level" form (N), while it is open.
    pub new_level: Option<Form>,
}

/// What the settings screen is over.
#[derive(Debug)]
pub(super) enum Over {
    /// The title, as it was.
    Title(TitleScreen),
    /// The game, paused.
    Game,
}

impl Mode {
    /// Whether the level is on screen: played, edited or watched (not the title or settings).
    pub fn shows_level(&self) -> bool {
        matches!(
            self,
            Self::Playing { .. } | Self::Editing | Self::Playback { .. }
        )
    }

    /// Whether a replay is being watched.
    pub fn is_playback(&self) -> bool {
        matches!(self, Self::Playback { .. })
    }

    /// Whether the editor is up.
    pub fn is_editing(&self) -> bool {
        matches!(self, Self::Editing)
    }

    /// The title screen, shown by itself or under the settings.
    pub fn title(&self) -> Option<&TitleScreen> {
        match self {
            Self::Title(t)
            | Self::Settings {
                over: Over::Title(t),
                ..
            } => Some(t),
            _ => None,
        }
    }
}
