//! Mail as data: finding the order file in a mail players' programs wrote
//! (`extract`), reading a local mailbox (`mailbox`), and building the mails
//! herald sends (`eml`). No game logic and no network here.

pub mod eml;
pub mod extract;
pub mod mailbox;
