//! The test helpers shared by the games crate's unit tests, the server's unit tests, the end-to-end
//! tests and the benchmarks: a dev-dependency of each, so no test helper is compiled into the
//! binary. Each crate names them `crate::cases` and `crate::scratch` (a `use` in its root).

pub mod cases;
