//! The library's unit tests that need only its public items, one module
//! per source file (named by its path). A test of a private part lives
//! beside the code, in the file's own `#[cfg(test)] mod tests`, so no
//! helper is `pub` for a test's sake (docs/performance.md, "The suite").

mod auth;
mod board_ascii;
mod board_hex;
mod board_svg;
mod bots;
mod chain_canon;
mod chain_dice;
mod chain_keys;
mod chain_record;
mod chain_step;
mod chain_witness;
mod error;
mod games_hexwar_piece;
mod games_hexwar_ruleset;
mod games_norse_wars_compose;
mod games_norse_wars_setup;
mod games_rules_error;
mod games_stack_wars;
mod games_unfought_battle_board;
mod games_unfought_battle_compose;
mod games_unfought_battle_setup;
mod games_war_of_the_dukes_map;
mod games_war_of_the_dukes_movement;
mod games_war_of_the_dukes_units;
mod host_commands;
mod host_config;
mod host_log;
mod host_outbox;
mod host_route;
mod host_sender;
mod host_state;
mod host_status_page;
mod host_tls;
mod mail_eml;
mod mail_extract;
mod names;
mod orders;
mod orders_slips;
mod pipeline_check;
mod playtest_coverage;
mod playtest_measures;
mod playtest_stats;
mod playtest_summary;
mod report;
mod report_compose;
mod requests_bound;
mod requests_game;
mod requests_orders;
mod rng;
mod store_limits;
mod store_lock;
mod store_write;
mod time;
