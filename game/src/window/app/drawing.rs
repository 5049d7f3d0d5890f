//! Drawing a frame: the title (or settings over it), the editor, or the world with its debug
//! views, then the HUD, the overlay's panels and the key help.

use macroquad::prelude::{
    Color, clear_background, draw_rectangle, screen_height, screen_width, set_default_camera,
};

use super::app_state::App;
use super::mode::Mode;
use super::screens::{self, HUD_BAR};
use crate::window::debug::views::View;

impl App {
    /// Draw the frame the mode shows.
    pub fn draw(&mut self) {
        puffin::profile_scope!("render");
        clear_background(Color::from_rgba(20, 17, 26, 255));
        if self.mode.title().is_some() {
            self.draw_title();
        } else if let (true, Some(_)) = (self.mode.is_editing(), &self.edits.session) {
            self.draw_editor();
        } else {
            self.draw_game();
        }
    }

    /// The title, or the settings over it, with the new-level form, help and notices.
    fn draw_title(&mut self) {
        let hud = &mut self.drawing.hud;
        match &self.mode {
            Mode::Settings { menu, .. } => {
                screens::settings(hud, self.records.settings.current(), menu.selected);
            }
            Mode::Title(title) => {
                let ghost = self.records.settings.current().ghost;
                screens::title(hud, &title.entries, title.selected, ghost);
                if let Some(form) = &title.new_level {
                    form.draw(hud, 40.0);
                }
            }
            _ => {}
        }
        // Drawn first, so a notice's box covers the text under it.
        self.drawing.hud.draw();
        self.draw_notices();
        self.drawing.hud.draw();
        // Last, on its own opaque boxes: the level list and the notices never show through.
        if self.drawing.overlay.views.is_on(View::Help) {
            self.draw_help();
            self.drawing.hud.draw();
        }
    }

    /// The editor on its level.
    fn draw_editor(&mut self) {
        let Some(session) = &mut self.edits.session else {
            return;
        };
        let drawing = &mut self.drawing;
        session.draw(&drawing.renderer, &mut drawing.hud, drawing.renderer.scale);
        self.frames.probe.end_world_pass();
        self.drawing.hud.draw();
        self.draw_notices();
        if self.drawing.overlay.views.is_on(View::Help) {
            self.draw_help();
        }
        self.drawing.hud.draw();
    }

    /// The world, its debug views and the blast's flash, then the HUD and the overlay.
    fn draw_game(&mut self) {
        let drawing = &mut self.drawing;
        if let Some(sim) = &mut self.run.sim {
            // The window may have been resized while the game stood still (paused, cleared).
            drawing.renderer.fit_camera(sim);
        }
        if let Some(sim) = &self.run.sim {
            let view = drawing.renderer.view(sim);
            drawing.renderer.set_world_camera(&view);
            drawing.renderer.draw_world(sim, &view);
            if let Some(ghost) = &self.run.ghost {
                drawing.renderer.draw_ghost(ghost, &view, &mut drawing.hud);
            }
            self.frames.probe.end_world_pass();
            // Over the world pass, not in it: only while a blast's ring spreads.
            drawing
                .renderer
                .draw_rings(&self.juice.rings, self.frames.frame);
            drawing
                .renderer
                .queue_strength(sim, &view, &mut drawing.hud);
            drawing
                .overlay
                .draw_world_views(sim, &view, drawing.renderer.scale, &mut drawing.hud);
        }
        set_default_camera();
        let flash = self.juice.feel.flash_alpha();
        if flash > 0.0 {
            // A blast's flash whitens the world, under the HUD.
            let c = Color::new(1.0, 0.96, 0.85, flash);
            draw_rectangle(0.0, 0.0, screen_width(), screen_height(), c);
        }
        // Labels the world views queued (grid counts) go under the HUD.
        self.drawing.hud.draw();
        self.draw_hud();
        if let Some(sim) = &self.run.sim {
            let drawing = &mut self.drawing;
            drawing
                .overlay
                .draw_panels(sim, self.frames.fps, HUD_BAR + 12.0, &mut drawing.hud);
        }
        // What is queued goes first, so the help's opaque boxes cover it.
        self.drawing.hud.draw();
        if self.drawing.overlay.views.is_on(View::Help) {
            self.draw_help();
        }
        self.drawing.hud.draw();
    }
}
