//! The frame's input, by mode: the editor's events, the new-level form, the title and settings
//! menus, and the game's keys and pad (`keys::Command`), or a replay's playback keys.

use macroquad::prelude::{KeyCode, get_frame_time, is_key_pressed, is_quit_requested};

use super::app_state::App;
use super::audio::Sfx;
use super::keys::{self, Command};
use super::mode::{Mode, Over};
use super::playback::{self, PlaybackCommand};
use crate::input::menu::{MenuInput, SettingsMenu};
use crate::input::pad::PadFrame;
use crate::player_data::settings::GhostRun;
use crate::window::debug::views::View;
use crate::window::editor::Outcome;
use crate::window::ui::ink;

impl App {
    /// Take this frame's input in the current mode. Returns whether the game quits.
    pub fn take_input(&mut self) -> bool {
        // Taken every frame, editing or not, so events never pile up.
        let events = self.devices.feed.take();
        let mut quit = is_quit_requested() && self.may_discard_edits(Command::Title, "closing");
        self.note_presses_not_taken();
        match &self.mode {
            Mode::Editing => quit |= self.editor_input(&events),
            Mode::Title(title) if title.new_level.is_some() => self.new_level_events(&events),
            // Closing the window quits from every screen; the screen's own keys may also quit.
            _ => {
                if let Some(go_on) = self.menu_and_game_input() {
                    quit |= !go_on;
                }
            }
        }
        quit
    }

    /// Note the scripted presses of this frame that its screen takes no game keys on (the
    /// editor, the new-level form, the settings), for the run's report.
    fn note_presses_not_taken(&mut self) {
        let why = match &self.mode {
            Mode::Editing => "the editor is open, and takes no game keys",
            Mode::Title(title) if title.new_level.is_some() => {
                "the new-level form is open, and takes no game keys"
            }
            Mode::Settings { .. } => "the settings screen is open, and takes no game keys",
            _ => return,
        };
        let frame = self.frames.frame;
        if let Some(script) = &mut self.script {
            let missed = script.press.iter().filter(|p| p.frame == frame);
            let notes: Vec<String> = missed.map(|p| format!("{p}: {why}")).collect();
            script.presses_not_taken.extend(notes);
        }
    }

    /// The editor takes input in scripted runs too (with `--edit` only), so tests can drive it
    /// with real clicks; the simulation stands still meanwhile. Returns whether it quit.
    fn editor_input(&mut self, events: &[crate::window::editor::EditEvent]) -> bool {
        let mut quit = false;
        let scale = self.drawing.renderer.scale;
        if let Some(session) = &mut self.edits.session {
            match session.handle(events, get_frame_time(), scale) {
                Outcome::Stay => {}
                Outcome::Play => self.leave_editor(),
                Outcome::Quit => quit = true,
            }
        }
        for command in keys::read_commands() {
            if let Command::ToggleView(view) = command {
                self.drawing.overlay.toggle(view);
            }
        }
        quit
    }

    /// The title, the settings or the game, with keys and pad. Returns whether to go on
    /// (`None` on the settings screen, which never quits).
    fn menu_and_game_input(&mut self) -> Option<bool> {
        let pad = self.devices.pads.poll();
        if keys::fullscreen_pressed() {
            self.change_settings(|s| s.fullscreen = !s.fullscreen);
        }
        let mut menu = keys::read_menu();
        menu.extend(pad.menu.iter().copied());
        match self.mode {
            Mode::Title(_) => Some(self.title_input(&menu, &pad)),
            Mode::Settings { .. } => {
                self.settings_input(&menu);
                None
            }
            Mode::Playing { .. } | Mode::Playback { .. } | Mode::Editing => {
                if !self.playback_keys() {
                    return Some(false);
                }
                let pressed = self.scripted_presses();
                for command in keys::read_commands().into_iter().chain(pressed) {
                    self.handle(command);
                }
                self.pad_commands(&pad);
                Some(true)
            }
        }
    }

    /// Note the scripted presses of this frame the title screen does not take (it takes F1,
    /// G and O of the game keys), for the run's report.
    fn note_title_presses_not_taken(&mut self) {
        const TAKEN: [Command; 3] = [
            Command::ToggleView(View::Help),
            Command::CycleGhost,
            Command::Settings,
        ];
        let frame = self.frames.frame;
        if let Some(script) = &mut self.script {
            let missed = script
                .press
                .iter()
                .filter(|p| p.frame == frame && !TAKEN.contains(&p.command));
            let notes: Vec<String> = missed
                .map(|p| format!("{p}: the title screen takes only F1, G and O"))
                .collect();
            script.presses_not_taken.extend(notes);
        }
    }

    /// The keys a scripted run presses on this frame (`--press KEY@FRAME`).
    fn scripted_presses(&self) -> Vec<Command> {
        let frame = self.frames.frame;
        self.script
            .iter()
            .flat_map(|s| &s.press)
            .filter(|p| p.frame == frame)
            .map(|p| p.command)
            .collect()
    }

    /// Keys and pad of the title screen: choose a level, start it, open the settings, or quit
    /// (Esc on the keyboard). Returns false to quit.
    fn title_input(&mut self, menu: &[MenuInput], pad: &PadFrame) -> bool {
        if is_key_pressed(KeyCode::Escape) {
            return false;
        }
        if is_key_pressed(KeyCode::N) {
            self.open_new_level_form();
            return true;
        }
        let scripted = self.scripted_presses();
        self.note_title_presses_not_taken();
        let help_key = View::ALL
            .iter()
            .find(|e| e.view == View::Help)
            .is_some_and(|help| is_key_pressed(help.key));
        if help_key || scripted.contains(&Command::ToggleView(View::Help)) {
            self.drawing.overlay.toggle(View::Help);
        }
        if is_key_pressed(KeyCode::G) || scripted.contains(&Command::CycleGhost) {
            self.cycle_ghost();
        }
        if is_key_pressed(keys::SETTINGS_KEY) || pad.select || scripted.contains(&Command::Settings)
        {
            self.open_settings_over_title();
            return true;
        }
        let n = self.records.levels.len();
        let Mode::Title(title) = &mut self.mode else {
            return true;
        };
        if n == 0 {
            return true;
        }
        let mut selected = title.selected.min(n - 1);
        let mut confirm = pad.start;
        let moved = menu
            .iter()
            .any(|m| matches!(m, MenuInput::Up | MenuInput::Down | MenuInput::Confirm));
        for &input in menu {
            match input {
                MenuInput::Up => selected = (selected + n - 1) % n,
                MenuInput::Down => selected = (selected + 1) % n,
                MenuInput::Confirm => confirm = true,
                MenuInput::Left | MenuInput::Right | MenuInput::Back => {}
            }
        }
        title.selected = selected;
        if moved || confirm {
            self.juice.sounds.play(Sfx::Menu);
        }
        if confirm {
            let path = self.records.levels[selected].clone();
            if self.may_open(&path) {
                self.open_level(&path);
            }
        }
        true
    }

    /// G: the next ghost to race (none, the author run, the player's best), kept in the
    /// settings, and on the level being played at once, caught up with the player.
    fn cycle_ghost(&mut self) {
        self.change_settings(|s| s.ghost = s.ghost.next());
        let run = self.records.settings.current().ghost;
        let said = match run {
            GhostRun::Off => "ghost off".to_owned(),
            GhostRun::Author => "racing the author run's ghost (G changes)".to_owned(),
            GhostRun::Best => "racing your best run's ghost (G changes)".to_owned(),
        };
        self.notify(said, ink::GOOD);
        if self.mode.title().is_none() {
            self.load_ghost();
            if let (Some(ghost), Some(sim)) = (&mut self.run.ghost, &self.run.sim) {
                ghost.catch_up(sim.state().step);
            }
        }
    }

    /// The settings screen over the title, which it returns to.
    fn open_settings_over_title(&mut self) {
        let mode = std::mem::replace(&mut self.mode, Mode::Playing { paused: false });
        self.mode = match mode {
            Mode::Title(title) => Mode::Settings {
                menu: SettingsMenu::default(),
                over: Over::Title(title),
            },
            other => other,
        };
    }

    /// The pad's Start (pause or resume) and Select (settings) while a level is on.
    fn pad_commands(&mut self, pad: &PadFrame) {
        if !matches!(self.mode, Mode::Playing { .. } | Mode::Playback { .. }) {
            return;
        }
        if pad.start {
            self.handle(Command::TogglePause);
        }
        if pad.select {
            self.open_settings_in_game();
        }
    }

    /// Keys of a replay being watched: pause, speed, one step. Returns false to quit.
    fn playback_keys(&mut self) -> bool {
        let Mode::Playback { playback, paused } = &mut self.mode else {
            return true;
        };
        for command in playback::read_commands() {
            match command {
                PlaybackCommand::TogglePause => *paused = !*paused,
                PlaybackCommand::Speed(speed) => playback.speed = speed,
                PlaybackCommand::Step => {
                    *paused = true;
                    playback.step_once = true;
                }
                PlaybackCommand::Quit => return false,
            }
        }
        true
    }

    /// A game key.
    fn handle(&mut self, command: Command) {
        // A replay stays on its level; its pause is a playback key.
        let level_change = matches!(
            command,
            Command::NextLevel | Command::PreviousLevel | Command::Title | Command::TogglePause
        );
        if self.mode.is_playback() && (level_change || command == Command::ToggleEdit) {
            return;
        }
        if command != self.edits.discard_armed.unwrap_or(command) {
            self.edits.discard_armed = None;
        }
        match command {
            Command::NextLevel if !self.may_discard_edits(command, "N") => {}
            Command::PreviousLevel if !self.may_discard_edits(command, "B") => {}
            Command::Title if !self.may_discard_edits(command, "T") => {}
            Command::ToggleEdit => self.enter_editor(),
            Command::Settings => self.open_settings_in_game(),
            Command::CycleGhost => self.cycle_ghost(),
            Command::SaveReplay => self.save_cleared_replay(),
            Command::TogglePause => {
                if let Mode::Playing { paused } = &mut self.mode {
                    *paused = !*paused;
                }
            }
            Command::Restart => {
                self.reload();
            }
            Command::NextLevel => self.cycle_level(1),
            Command::PreviousLevel => self.cycle_level(-1),
            Command::Title => self.open_title(),
            Command::ToggleShake => self.toggle_shake(),
            Command::ToggleView(view) => self.drawing.overlay.toggle(view),
            Command::ToggleSound => {
                let on = self.juice.sounds.is_muted();
                self.change_settings(|s| s.sound = on);
                let state = if self.juice.sounds.is_muted() {
                    "off"
                } else {
                    "on"
                };
                self.notify(format!("sound {state} (M)"), ink::TEXT);
            }
            Command::ToggleDirtyOptimization => {
                if let Some(sim) = &mut self.run.sim {
                    let on = !sim.dirty_optimization();
                    sim.set_dirty_optimization(on);
                    self.drawing.overlay.switched(on);
                }
            }
        }
    }

    /// K: screen shake and hit-stop together, on or off.
    fn toggle_shake(&mut self) {
        let s = self.juice.feel.settings();
        let on = !(s.shake || s.hit_stop);
        self.change_settings(|s| {
            s.shake = on;
            s.hit_stop = on;
        });
        let state = if on { "on" } else { "off" };
        self.notify(format!("screen shake and hit-stop {state} (K)"), ink::TEXT);
    }
}
