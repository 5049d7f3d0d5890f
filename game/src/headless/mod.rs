//! The headless core: the game as data and rules, with no window. The `sim` subcommand, the
//! level checker and every test run this layer alone; [`crate::window`] draws it.

pub mod atlas;
pub mod background_loader;
pub mod campaign;
pub mod editor;
pub mod feel;
pub mod fsutil;
pub(crate) mod game_data;
pub mod input;
pub mod level;
pub mod output;
pub(crate) mod paths;
pub mod player_data;
pub(crate) mod raster;
pub mod replay;
pub mod route;
pub mod sfx;
pub mod sim;
pub mod sim_run;
pub mod text_lines;
pub mod tool_io;
