-- Which running games wait for a robot's move, kept on the game (issue 35, item 1). Every committed
-- mail asks for a robot left to move, and `pbem cron` for all of them: without this column the
-- question walked every running game (7,400 of 10,000) and its seat to move. `robot_turn` is 1
-- while the game is running and the account at its seat to move is a robot, else 0; triggers keep
-- it right whichever statement changes the seat to move, the end, a seat's player or an account's
-- robot level, so no writer has to know of it. A partial index holds only the games it is 1 for.
-- Also an index of the refused outbox rows, which the daily prune deletes with the sent ones.
-- Never edit this file once landed: add a new one instead.

ALTER TABLE games ADD COLUMN robot_turn INTEGER NOT NULL DEFAULT 0;

UPDATE games SET robot_turn = 1
WHERE finished = 0 AND EXISTS (
    SELECT 1 FROM seats s JOIN users u ON u.id = s.user_id
    WHERE s.game_id = games.id AND s.seat = games.to_move AND u.robot IS NOT NULL);

CREATE INDEX games_robot_turn ON games(updated_at) WHERE robot_turn = 1;

CREATE TRIGGER games_robot_turn_on_move AFTER UPDATE OF finished, to_move ON games
BEGIN
    UPDATE games SET robot_turn = (finished = 0 AND EXISTS (
        SELECT 1 FROM seats s JOIN users u ON u.id = s.user_id
        WHERE s.game_id = games.id AND s.seat = games.to_move AND u.robot IS NOT NULL))
    WHERE id = NEW.id;
END;

CREATE TRIGGER games_robot_turn_on_seat AFTER INSERT ON seats
BEGIN
    UPDATE games SET robot_turn = (finished = 0 AND EXISTS (
        SELECT 1 FROM seats s JOIN users u ON u.id = s.user_id
        WHERE s.game_id = games.id AND s.seat = games.to_move AND u.robot IS NOT NULL))
    WHERE id = NEW.game_id;
END;

CREATE TRIGGER games_robot_turn_on_player AFTER UPDATE OF user_id ON seats
BEGIN
    UPDATE games SET robot_turn = (finished = 0 AND EXISTS (
        SELECT 1 FROM seats s JOIN users u ON u.id = s.user_id
        WHERE s.game_id = games.id AND s.seat = games.to_move AND u.robot IS NOT NULL))
    WHERE id = NEW.game_id;
END;

CREATE TRIGGER games_robot_turn_on_robot AFTER UPDATE OF robot ON users
BEGIN
    UPDATE games SET robot_turn = (finished = 0 AND EXISTS (
        SELECT 1 FROM seats s JOIN users u ON u.id = s.user_id
        WHERE s.game_id = games.id AND s.seat = games.to_move AND u.robot IS NOT NULL))
    WHERE id IN (SELECT game_id FROM seats WHERE user_id = NEW.id);
END;

CREATE INDEX outbox_refused ON outbox(refused_at) WHERE refused_at IS NOT NULL;
