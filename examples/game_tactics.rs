//! Finds the positions of `tests/fixtures/tactics/GAME.txt` for `tests/it/robot_tactics_boards.rs`: games of
//! GAME on its default board (a challenge without options, two players) played at random by a fixed
//! generator, each stopped at the first position where the player to move can win at once, and in
//! another run at the first where they cannot but have a move after which every reply leaves them a
//! win at once (a forced win in two own turns; positions with a win at once are passed over). Each
//! line: the kind (`win1`, `win2`), the moves that do it (space-separated), the game's JSON; all found
//! exhaustively over the game's actions.
//!
//! `cargo run --release --features tools --example game_tactics -- GAME [HOW_MANY [SLOWER]] > tests/fixtures/tactics/GAME.txt`
//!
//! With SLOWER above 2 (Cups: 3), the test accepts from the robots any move that forces a win within
//! SLOWER own turns in a win in two; such a position is kept only if fewer than half of the moves do
//! that and at least half are proven not to win (see `tactical`), and a random game goes on past a
//! position passed over. In most late Cups positions every move wins, only more or less quickly.
//!
//! A reply that ends the game with the player's win counts for the player: in Chameleon either seat may
//! place either colour, so a reply can complete the player's chain (an earlier test's oracle counted
//! such a reply as a refutation, and so called a robot's forced win a miss). A position is kept only if
//! fewer than a quarter of the moves do it, and positions where `pass` is legal (Unlur's contract) are
//! skipped: the issue asks for the play phase.

use pbem::games::{GameState, Outcome, Registry, Status};

/// The legal actions of `g` into `out`: its action ids, or for a game without them (Cups) the
/// indices of its legal moves, as the search numbers them.
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

/// What a player forces in [`holds`]: their own win, or an end that is not the other's win.
#[derive(Clone, Copy)]
enum Goal {
    Win,
    NoLoss,
}

/// Whether the game's end `o` meets `goal` for player `p`.
fn met(goal: Goal, o: &Outcome, p: usize) -> bool {
    match goal {
        Goal::Win => *o == Outcome::Winner(p),
        Goal::NoLoss => !matches!(o, Outcome::Winner(w) if *w != p),
    }
}

/// Whether player `p` forces `goal` from `h` (whoever is to move there) with at most `more` own
/// turns, whatever the other does. Exact, by brute force over the actions: every turn `p` gets counts
/// (also one `p` gets again, as in Cups when the other is stuck), the other's turns count for nothing
/// and every one of their moves is tried.
fn holds(h: &dyn GameState, p: usize, more: u32, goal: Goal) -> bool {
    let mut acts = Vec::new();
    actions(h, &mut acts);
    match h.status() {
        Status::Over(o) => met(goal, &o, p),
        Status::ToMove(s) if s == p => {
            more > 0 && acts.iter().any(|&b| after(h, b, p, more - 1, goal))
        }
        Status::ToMove(_) => acts.iter().all(|&r| after(h, r, p, more, goal)),
    }
}

/// [`holds`] after action `a` in `g`.
fn after(g: &dyn GameState, a: u32, p: usize, more: u32, goal: Goal) -> bool {
    let mut h = g.clone_box();
    apply(h.as_mut(), a);
    holds(h.as_ref(), p, more, goal)
}

/// The game's JSON on one line.
fn one_line(g: &dyn GameState) -> String {
    let v: serde_json::Value = serde_json::from_str(&g.to_json()).expect("the engine writes JSON");
    v.to_string()
}

/// Whether a win in two of `me` to move in `g` is kept when slower wins are accepted (`slower`
/// above 2; always so otherwise): fewer than half of the moves force a win within `slower` own
/// turns, and for at least half of them the opponent is proven to force a draw or a win within
/// `slower` own turns. In late Cups positions one player is often stuck for good and the other wins
/// whatever they do, only more or less quickly: no test of tactics. (Cups' wins at once are such
/// positions, nearly all: the move that ends the game while ahead. They are kept; the test asks for
/// that move.)
fn tactical(g: &dyn GameState, me: usize, slower: u32) -> bool {
    if slower <= 2 {
        return true;
    }
    let mut acts = Vec::new();
    actions(g, &mut acts);
    let n = acts.len();
    let slow = acts
        .iter()
        .filter(|&&a| after(g, a, me, slower - 1, Goal::Win))
        .count();
    let held_off = acts
        .iter()
        .filter(|&&a| after(g, a, 1 - me, slower, Goal::NoLoss))
        .count();
    slow * 2 < n && held_off * 2 >= n
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
        eprintln!(
            "usage: game_tactics GAME [HOW_MANY [SLOWER]]   (GAME as the server names it, e.g. hex)"
        );
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
    let slower: u32 = match args.get(3).map(|s| s.parse()) {
        None => 2,
        Some(Ok(n)) if n >= 2 => n,
        Some(_) => {
            eprintln!("game_tactics: SLOWER is a whole number of own turns, 2 or more, like 3");
            std::process::exit(64);
        }
    };
    let Some(rules) = Registry::standard().find(name) else {
        eprintln!("game_tactics: no game named {name}");
        std::process::exit(64);
    };
    let (mut ones, mut twos) = (0, 0);
    for seed in 0..20_000u64 {
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
                        let kept =
                            w.len() * 4 < g.legal_moves().len() && tactical(g.as_ref(), me, slower);
                        if kept {
                            let texts: Vec<String> =
                                w.iter().map(|&a| text(g.as_ref(), a)).collect();
                            println!("win2\t{}\t{}", texts.join(" "), one_line(g.as_ref()));
                            twos += 1;
                        }
                        // One position a game; where slower wins are accepted, the game goes on
                        // past a position that `tactical` passes over.
                        if kept || slower <= 2 {
                            break;
                        }
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
