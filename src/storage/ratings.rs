//! Storage for ratings (see `crate::server::standings`).
