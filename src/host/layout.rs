//! The host folder's layout: [`crate::store::host_dir`], below the door
//! (`crate::requests` reads the lobby's records through it), named here
//! too for the host's own code.

pub use crate::store::host_dir::*;
