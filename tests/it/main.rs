//! herald's integration tests, as modules of one test binary (one link, not
//! one per module): each module drives the real `herald` binary or the
//! library.

mod common;
mod unit;

mod browser;
mod cases;
mod cli;
mod composer;
mod edges;
mod format3;
mod hexwar;
mod host_due;
mod host_mail;
mod host_safety;
mod host_surge;
mod host_transport;
mod install;
mod layers;
mod legal_now;
mod lengths;
mod lobby;
mod lobby_tables;
mod mail;
mod mails;
mod mailservers;
mod new_refusals;
mod orders;
mod pictures;
mod playouts;
mod playtest;
mod press;
mod press_more;
mod readme;
mod site;
mod site_truth;
mod stack_wars;
mod store;
mod trust;
mod unfought_battle;
mod war_of_the_dukes;
