//! Boards whose cells are bit sets, shared by the games played on them: Ataxx's square board and
//! the Abalone hexagon of Hexxagon and Paradux ([`geometry`]: names, neighbours and the cells at
//! distance 2, precomputed once a size), and the sets of up to 256 cells ([`bits`]). A game folder
//! imports these from here, not from another game's folder (issue 36, section 1).

pub mod bits;
pub mod geometry;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The games' folders, by the registry: each is `games/<name>/` (Hexxagon is Ataxx's).
    fn game_folders() -> Vec<&'static str> {
        let mut names: Vec<&str> = crate::games::Registry::standard().names();
        names.retain(|&n| n != "hexxagon");
        names
    }

    /// Issue 36, section 1: a game folder imports shared code only, never another game's folder
    /// (Paradux took Ataxx's board until `cellgrid`, Chameleon Hex's sizes, goals and cell reader
    /// until `hexgrid::rhombus`).
    #[test]
    fn a_game_folder_imports_no_other_games_folder() {
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
        let folders = game_folders();
        let mut found = Vec::new();
        for &game in &folders {
            let mut files: Vec<_> = std::fs::read_dir(games.join(game))
                .unwrap_or_else(|e| panic!("games/{game}/: {e}"))
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "rs"))
                .collect();
            files.sort();
            assert!(!files.is_empty(), "games/{game}/ has no source");
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                for &other in folders.iter().filter(|&&o| o != game) {
                    let named = [
                        format!("games::{other}::"),
                        format!("super::super::{other}::"),
                        format!("super::{other}::"),
                    ];
                    if named.iter().any(|n| text.contains(n.as_str())) {
                        found.push(format!("{game} -> {other}"));
                    }
                }
            }
        }
        found.dedup();
        assert_eq!(
            found,
            Vec::<String>::new(),
            "a game folder imports another's"
        );
    }
}
