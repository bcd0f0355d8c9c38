-- A robot opponent (issue 15): accounts robot1, robot2 and robot3 play by the rules engine's search,
-- at three strengths. They have no password (nobody can log in as them) and no address (no mail goes
-- to them); they are challenged and rated like anyone.
-- Never edit this file once landed: add 0013_... instead.

ALTER TABLE users ADD COLUMN robot INTEGER;   -- the robot's level, 1 to 3; NULL for a person

-- Where a person already took the name, that person keeps it and the robot is not made.
INSERT INTO users (userid, userid_key, password_hash, created_at, robot)
SELECT 'robot' || level, 'robot' || level, NULL, CAST(strftime('%s', 'now') AS INTEGER), level
FROM (SELECT 1 AS level UNION ALL SELECT 2 UNION ALL SELECT 3)
WHERE NOT EXISTS (SELECT 1 FROM users WHERE userid_key = 'robot' || level);
