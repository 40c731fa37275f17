-- The candidates of a pop round: up to `want` members of a queue from rank `from` on (timed types: due at `now`,
-- lowest score first; PRIORITY: highest score first), with their scores as text, in runs.
--
-- A score costs Redis more than its member to hand to the script (Redis 6.2 and 7.0 format each score with
-- snprintf), and a queue's members usually come in runs of one score (messages sent in the same millisecond, or with
-- the same priority). So the scores are read run by run: the first candidate's score, then a ZCOUNT that tells where
-- the run of that score ends, and the members without scores; the next run's score is read from its first member, or,
-- when it is the whole number after (a busy queue's next millisecond), found with a second ZCOUNT (nextRun below).
-- Once a run is shorter than RUN_SHORT members, the rest of the round is read with WITHSCORES: where runs are short,
-- one formatted score per member is cheaper than two reads per run. The first run is judged with the one after it
-- when it is short: the queue's head may be the rest of a long run whose start an earlier pop took (with distinct
-- scores, two reads more per round).
--
-- Returns the members (a list) and their scores as runs: score, how many members in a row have it, score, ... (the
-- counts add up to the number of members). The pop's reply carries the runs as they are (lib/pop_reply.lua): no
-- table entry, and no reply element, per member for its score.
local RUN_SHORT = 8

-- the rank (from the queue's start in its order) right after the run of score s
local function runEnd(queue, timed, s)
  if timed then return redis.call('ZCOUNT', queue, '-inf', s) end
  return redis.call('ZCOUNT', queue, s, '+inf')
end

-- the rank (from the queue's start in its order) where the run of score s starts: the members before it
local function runStart(queue, timed, s)
  if timed then return redis.call('ZCOUNT', queue, '-inf', '(' .. s) end
  return redis.call('ZCOUNT', queue, '(' .. s, '+inf')
end

-- members and scores, alternating, of up to `count` candidates from rank `at` on
local function withScores(queue, timed, now, at, count)
  if timed then return redis.call('ZRANGEBYSCORE', queue, '-inf', now, 'WITHSCORES', 'LIMIT', at, count) end
  return redis.call('ZREVRANGE', queue, at, at + count - 1, 'WITHSCORES')
end

-- the member at rank `at` of a queue in its order, with its score: { member, score }, or empty past its end
local function memberAt(queue, timed, at)
  if timed then return redis.call('ZRANGE', queue, at, at, 'WITHSCORES') end
  return redis.call('ZREVRANGE', queue, at, at, 'WITHSCORES')
end

-- The queue's first member in its order with its score, due or not: { member, score }, or empty for an empty queue.
-- When it is due (timed types: its score is at most now) it is the candidate a first round's probe reads (from rank
-- 0); when it is not, nothing is due, and its score is the earliest due time.
local function firstOf(queue, timed) return memberAt(queue, timed, 0) end

-- appends `count` members of score `score` to `runs`
local function runAdd(runs, score, count)
  local r = #runs
  if r > 0 and runs[r - 1] == score then runs[r] = runs[r] + count
  else
    runs[r + 1] = score
    runs[r + 2] = count
  end
end

-- appends the members of a WITHSCORES reply to `members` (which holds n) and their scores to `runs`; the new count
local function runsOfScored(read, members, runs, n)
  local r = #runs
  local last = runs[r - 1]
  for k = 1, #read, 2 do
    n = n + 1
    members[n] = read[k]
    local score = read[k + 1]
    -- equal strings are one object in Lua: the comparison is cheap
    if score == last then runs[r] = runs[r] + 1
    else
      runs[r + 1] = score
      runs[r + 2] = 1
      r = r + 2
      last = score
    end
  end
  return n
end

-- the score of each member, one entry per member, from runs
local function scoresOf(runs)
  local scores, n = {}, 0
  for r = 1, #runs, 2 do
    local score = runs[r]
    for _ = 1, runs[r + 1] do
      n = n + 1
      scores[n] = score
    end
  end
  return scores
end

-- The run that starts at rank `stop`, right after the run of `score`: its score and the rank where it ends, or nil
-- when there is none that is due (timed types) or none at all; and whether the next call may guess. Scores are
-- usually whole numbers (due times in milliseconds, priorities), and a busy queue holds one after the other: with
-- `guess`, two ZCOUNTs tell whether the next run's score is the whole number after `score` in the queue's order (its
-- end, and no score between the two runs) without reading a member with its score (a formatted score, and the member
-- as a Lua string: two to three times a ZCOUNT's cost). A guess that misses (a gap, or a score that is not whole)
-- costs one or two ZCOUNTs, and the round guesses no more.
local function nextRun(queue, timed, now, score, stop, guess)
  local s = tonumber(score)
  -- every later run is scored above s: none is due
  if timed and s >= now then return nil, stop, false end
  if guess and s == math.floor(s) and math.abs(s) < 2^52 then
    -- %d: the text Redis gives a whole score below 2^53 (its %.17g), never an exponent
    local nextScore = string.format('%d', timed and s + 1 or s - 1)
    local upTo = runEnd(queue, timed, nextScore)
    if upTo > stop and runStart(queue, timed, nextScore) == stop then return nextScore, upTo, true end
  end
  local one = memberAt(queue, timed, stop)
  if #one == 0 or (timed and tonumber(one[2]) > now) then return nil, stop, false end
  return one[2], runEnd(queue, timed, one[2]), false
end

-- probe: the queue's first candidate with its score (firstOf above) when the caller read it already, or nil
local function candidatesOf(queue, timed, now, from, want, probe)
  probe = probe or withScores(queue, timed, now, from, 1)
  if #probe == 0 then return {}, {} end
  local score = probe[2]
  local stop = runEnd(queue, timed, score)
  local members, runs = {}, {}
  -- A short first run that does not fill the round may be the rest of a long run whose start earlier pops took: the
  -- run after it tells (read here, and used by the loop below as its second run). When that one is short too and does
  -- not reach the round's end, the round is read with WITHSCORES.
  local second = nil
  local guess = true
  if stop - from < math.min(want, RUN_SHORT) then
    local nextScore, nextStop
    nextScore, nextStop, guess = nextRun(queue, timed, now, score, stop, guess)
    if nextScore then
      second = { score = nextScore, stop = nextStop }
      if second.stop - stop < RUN_SHORT and second.stop - from < want then
        runsOfScored(withScores(queue, timed, now, from, want), members, runs, 0)
        return members, runs
      end
    end
  end
  if timed then members = redis.call('ZRANGEBYSCORE', queue, '-inf', now, 'LIMIT', from, want)
  else members = redis.call('ZREVRANGE', queue, from, from + want - 1) end
  local n = #members
  -- i: the first member without a score; the run of `score` ends at rank `stop`
  local i = 1
  while true do
    local upTo = math.min(n, stop - from)
    local runLength = upTo - i + 1
    runs[#runs + 1] = score
    runs[#runs + 1] = runLength
    if upTo >= n then return members, runs end
    i = upTo + 1
    if second then
      -- the run after a short first one, read above (a short first run goes no further without it: the round ends
      -- with it)
      score, stop, second = second.score, second.stop, nil
    else
      if runLength < RUN_SHORT then
        -- the rest with scores: the members read again are the same ones, in the same order
        runsOfScored(withScores(queue, timed, now, from + i - 1, n - i + 1), members, runs, i - 1)
        return members, runs
      end
      -- the candidates are the queue's members from rank `from` on, in its order: the next run starts at rank `stop`
      -- (from + i - 1)
      score, stop, guess = nextRun(queue, timed, now, score, stop, guess)
    end
  end
end
