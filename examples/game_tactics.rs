//! Finds the positions of `tests/fixtures/tactics/GAME.txt` for `tests/it/robot_tactics.rs`: games of
//! GAME on its default board (a challenge without options, two players) played at random by a fixed
//! generator, each stopped at the first position where the player to move can win at once, and in
//! another run at the first where they cannot but have a move after which every reply leaves them a
//! win at once (a forced win in two own turns; positions with a win at once are passed over). Each line: the kind (`win1`, `win2`), the moves that do
//! it (space-separated), the game's JSON; all found exhaustively over the game's actions.
//!
//! `cargo run --release --features tools --example game_tactics -- GAME [HOW_MANY] > tests/fixtures/tactics/GAME.txt`
//!
//! A reply that ends the game with the player's win counts for the player: in Chameleon either seat may
//! place either colour, so a reply can complete the player's chain (an earlier test's oracle counted
//! such a reply as a refutation, and so called a robot's forced win a miss). A position is kept only if
//! fewer than a quarter of the moves do it, and positions where `pass` is legal (Unlur's contract) are
//! skipped: the issue asks for the play phase.

use pbem::games::{GameState, Outcome, Registry, Status};

/// The legal actions of `g` into `out`: its action ids, or for a game without them (Ataxx, Paradux,
/// Cups) the indices of its legal moves, as the search numbers them.
fn actions(g: &dyn GameState, out: &mut Vec<u32>) {
    if g.action_space() > 0 {
        g.legal_actions(out);
    } else {
        out.clear();
        out.extend(0..g.legal_moves().len() as u32);
    }
}

/// Plays an action listed by [`actions`].
fn apply(g: &mut dyn GameState, a: u32) {
    if g.action_space() > 0 {
        g.apply_action(a);
    } else {
        let moves = g.legal_moves();
        g.play(&moves[a as usize]).expect("a listed move is legal");
    }
}

/// An action listed by [`actions`] in the game's notation.
fn text(g: &dyn GameState, a: u32) -> String {
    if g.action_space() > 0 {
        g.action_text(a)
    } else {
        g.legal_moves().swap_remove(a as usize)
    }
}

/// The player to move's actions that win at once.
fn wins_at_once(g: &dyn GameState, me: usize) -> Vec<u32> {
    let mut acts = Vec::new();
    actions(g, &mut acts);
    acts.into_iter().filter(|&a| won(g, a, me)).collect()
}

/// Whether `a` played in `g` ends the game with `me`'s win.
fn won(g: &dyn GameState, a: u32, me: usize) -> bool {
    let mut h = g.clone_box();
    apply(h.as_mut(), a);
    h.status() == Status::Over(Outcome::Winner(me))
}

/// Whether `me`, to move in `g`, wins at once; `killer` (the last winning action) is tried first.
fn has_win(g: &dyn GameState, me: usize, killer: &mut Option<u32>, acts: &mut Vec<u32>) -> bool {
    actions(g, acts);
    if let Some(k) = *killer
        && acts.contains(&k)
        && won(g, k, me)
    {
        return true;
    }
    match acts.iter().copied().find(|&a| won(g, a, me)) {
        Some(a) => {
            *killer = Some(a);
            true
        }
        None => false,
    }
}

/// The actions of `me` (to move in `g`, with no win at once) after which every reply either ends the
/// game with `me`'s win or leaves `me` to move with a win at once; or, where the move leaves `me` to
/// move again, after which `me` wins at once. A reply after which the opponent moves again counts as
/// a refutation (the win, if any, is longer).
fn wins_in_two(g: &dyn GameState, me: usize) -> Vec<u32> {
    let mut acts = Vec::new();
    actions(g, &mut acts);
    let (mut refute, mut killer) = (None::<u32>, None::<u32>);
    let (mut replies, mut scratch) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for &m in &acts {
        let mut h = g.clone_box();
        apply(h.as_mut(), m);
        match h.status() {
            Status::Over(_) => continue,
            // Still the mover's turn (Cups' extra turn, Ataxx's opponent with nothing to do): the
            // move wins in two if the next one wins at once.
            Status::ToMove(s) if s == me => {
                if has_win(h.as_ref(), me, &mut killer, &mut scratch) {
                    out.push(m);
                }
                continue;
            }
            Status::ToMove(_) => {}
        }
        actions(h.as_ref(), &mut replies);
        // The reply that refuted the last move first: one reply often refutes many moves.
        if let Some(k) = refute
            && let Some(i) = replies.iter().position(|&r| r == k)
        {
            replies.swap(0, i);
        }
        let refuted = replies.iter().copied().find(|&r| {
            let mut x = h.clone_box();
            apply(x.as_mut(), r);
            match x.status() {
                Status::Over(o) => o != Outcome::Winner(me),
                Status::ToMove(s) => s != me || !has_win(x.as_ref(), me, &mut killer, &mut scratch),
            }
        });
        match refuted {
            Some(r) => refute = Some(r),
            None => out.push(m),
        }
    }
    out
}

/// The game's JSON on one line.
fn one_line(g: &dyn GameState) -> String {
    let v: serde_json::Value = serde_json::from_str(&g.to_json()).expect("the engine writes JSON");
    v.to_string()
}

/// One random move, played by its text so that the move list (which the JSON keeps) has it.
fn step(g: &mut dyn GameState, k: &mut u64) {
    let moves = g.legal_moves();
    *k = k
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mv = &moves[(*k >> 33) as usize % moves.len()];
    g.play(mv).expect("a listed move is legal");
}

/// A position the tests may use: the game goes on, the player to move is known, and it is not
/// Unlur's contract.
fn in_play(g: &dyn GameState) -> Option<usize> {
    match g.status() {
        Status::ToMove(me) if !g.legal_moves().iter().any(|m| m == "pass") => Some(me),
        _ => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(name) = args.get(1) else {
        eprintln!("usage: game_tactics GAME [HOW_MANY]   (GAME as the server names it, e.g. hex)");
        std::process::exit(64);
    };
    let want: usize = match args.get(2).map(|s| s.parse()) {
        None => 10,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("game_tactics: HOW_MANY is a whole number, like 10");
            std::process::exit(64);
        }
    };
    let Some(rules) = Registry::standard().find(name) else {
        eprintln!("game_tactics: no game named {name}");
        std::process::exit(64);
    };
    let (mut ones, mut twos) = (0, 0);
    for seed in 0..2000u64 {
        let start = rules
            .new_game(&[], 2, seed)
            .expect("the default options are valid");
        if ones < want {
            let mut g = start.clone_box();
            let mut k = seed;
            while matches!(g.status(), Status::ToMove(_)) {
                if let Some(me) = in_play(g.as_ref()) {
                    let w = wins_at_once(g.as_ref(), me);
                    if !w.is_empty() {
                        if w.len() * 4 < g.legal_moves().len() {
                            let texts: Vec<String> =
                                w.iter().map(|&a| text(g.as_ref(), a)).collect();
                            println!("win1\t{}\t{}", texts.join(" "), one_line(g.as_ref()));
                            ones += 1;
                        }
                        break;
                    }
                }
                step(g.as_mut(), &mut k);
            }
        }
        if twos < want {
            let mut g = start.clone_box();
            let mut k = seed ^ 0x5555;
            while matches!(g.status(), Status::ToMove(_)) {
                if let Some(me) = in_play(g.as_ref())
                    && wins_at_once(g.as_ref(), me).is_empty()
                {
                    let w = wins_in_two(g.as_ref(), me);
                    if !w.is_empty() {
                        if w.len() * 4 < g.legal_moves().len() {
                            let texts: Vec<String> =
                                w.iter().map(|&a| text(g.as_ref(), a)).collect();
                            println!("win2\t{}\t{}", texts.join(" "), one_line(g.as_ref()));
                            twos += 1;
                        }
                        break;
                    }
                }
                step(g.as_mut(), &mut k);
            }
        }
        if ones >= want && twos >= want {
            break;
        }
    }
    eprintln!("{name}: {ones} wins in one, {twos} wins in two");
}
