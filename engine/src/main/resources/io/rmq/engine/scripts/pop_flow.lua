--[[
  pop_flow: pop.lua with limits per key (docs/flow-control.md "Limits per key"): the same KEYS 1..12, ARGV 1..7,
  statuses and reply, for a consumer whose topic limits its keys. pop.lua documents the steps they share; these
  are added (lib/keys.lua describes the keys):

  1. Keys that may go again (parkedkeys score <= now; at most max(16, count) per call) bring back as many of their
     parked members as they have room for, in pop order, into the store queue (one ZPOPMIN per key; a key whose set
     turns out empty leaves parkedkeys, at the latest on its next turn). A copy sent meanwhile is merged by the
     topic type's rule, the parked copy being the older: RANGE_MERGE keeps the parked score (the first due time
     stands), PRIORITY and FIXED_TIME keep the score sent last.
  2. Candidates are taken in pop order as pop.lua takes them; a member whose key has no room (concurrency: the
     key has ARGV[8] members in the prepare queue; rate: the key's next permit is not due) is parked: moved out
     of the store queue into its key's parked set (merged by the same rule with a copy parked before), so it
     never holds back the keys behind it. Up to 8 rounds of max(count, 128) candidates are looked at per call;
     when due members were left unseen, `next` is 0 (pop again at once).
  3. Members moved to the prepare queue take a place of their key (c:<key> + 1) and a permit of its rate (GCRA:
     t:<key> = max(t:<key>, now) + ARGV[9]; a key may run ARGV[10] permits ahead of now).
  With the prepare queue empty, every key's count is taken as 0 (a count left behind heals) and the keys parked
  until a place frees go again too.
  4. When fewer than count members were popped, `next` is also at most the time until the first parked key may go
     again (a place freed by a settlement arrives as a wake notice instead: commit.lua, rollback.lua, release.lua
     given the flow keys free places and mark the key ready).
  Counters: fields parked and unparked (members moved each way), one HINCRBY each per call when not 0.

  KEYS[1..12]  as pop.lua (all given)
  KEYS[13] flow keys       flowkey{<prefix><topic>_<slot>}: member -> its key (none: the key ~slot)
  KEYS[14] key counts      keyflow{<prefix><topic>_<slot>}: c:<key> -> members in the prepare queue, t:<key> -> tat
  KEYS[15] parked keys     parkedkeys{<prefix><topic>_<slot>}: key -> when it may go again (ms; +inf: when a place
                           frees); the key's members wait in parked:<encoded key>{<prefix><topic>_<slot>}

  ARGV[1..7]  as pop.lua
  ARGV[8]  concurrency     most members of one key in the prepare queue (>= 1), or 0 for no limit
  ARGV[9]  permit ms       ms per permit of one key's rate (1000 / rate per second), or 0 for no rate limit
  ARGV[10] burst           permits a key may take at once after a quiet time (>= 1)

  Returns  as pop.lua, with the keys list: each member's key ('' for none, ~slot for a member without an entry)
]]
if redis.replicate_commands then redis.replicate_commands() end

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local attemptsKey = KEYS[3]
local originKey   = KEYS[4]
local ownerKey    = KEYS[5]
local pausedKey   = KEYS[6]
local countersKey = KEYS[7]
local topicType   = ARGV[1]
local count       = tonumber(ARGV[2])
local timeout     = tonumber(ARGV[3])
local epoch       = tonumber(ARGV[4] or '0')
local worker      = ARGV[5] or ''
local expiryKey   = KEYS[8]
local toDead      = ARGV[6] == '1'
local traceKey    = KEYS[12]
local traced      = traceKey ~= nil and ARGV[7] == '1'
local conc        = tonumber(ARGV[8]) or 0
local perPermit   = tonumber(ARGV[9]) or 0
local burst       = math.max(1, tonumber(ARGV[10]) or 1)
local flow        = { keys = KEYS[13], counts = KEYS[14], parked = KEYS[15] }

local POPPED, HANDOVER, FENCED, PAUSED = 0, 1, -1, 2

-- #include lib/clock.lua: redisNow()
local now = redisNow()
local deadline = now + timeout
-- one conversion of the deadline to a string, not one per member moved
local deadlineArg = tostring(deadline)
local timed = topicType ~= 'PRIORITY'

-- #include lib/pop_claim.lua: claimSlot(ownerKey, prepareKey, pausedKey, epoch, epochText, worker, now, count)
local refused = claimSlot(ownerKey, prepareKey, pausedKey, epoch, ARGV[4], worker, now, count)
if refused then return refused end

-- A key of the wrong type (written by another client) must fail the call before anything moves,
-- or popped members would sit in the prepare queue with no one told: the counters hash is written
-- last, so its type is checked first (the other keys are read before the members move).
if countersKey then redis.call('HEXISTS', countersKey, '') end

-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
-- #include lib/expiry.lua: expireMembers(keys, topicType, now, limit, toDead)
-- #include lib/blocked.lua: blockedKeyOf, noteBlocked, takeBlocked
-- #include lib/candidates.lua: candidatesOf(queue, timed, now, from, want), scores read run by run
-- #include lib/pop_reply.lua: newPopped, addPopped, popReply: the reply's lists of the members moved
-- the blocked hash is written after the members move: its type is checked before anything moves; nothing adds an
-- entry before the call ends (noteBlocked), so a hash empty now needs no look-up when members move
local blockedKey = blockedKeyOf(storeKey)
local blockedEmpty = redis.call('HLEN', blockedKey) == 0

-- The keys' state as this call leaves it: key -> { c = members in the prepare queue, t = tat }
local state, changed, changedList = {}, {}, {}
-- With nothing in flight every count is 0, whatever the hash says: a count left behind (by a consumer that stopped
-- limiting keys while it held messages) heals here, and keys parked until a place frees may all go.
local nothingInFlight = redis.call('ZCARD', prepareKey) == 0
local function loadKeys(keys)
  local wanted, fields = {}, {}
  for _, key in ipairs(keys) do
    if state[key] == nil and key ~= '' then
      state[key] = { c = 0, t = 0 }
      wanted[#wanted + 1] = key
      fields[#fields + 1] = 'c:' .. key
      fields[#fields + 1] = 't:' .. key
    end
  end
  local values = callAll('HMGET', flow.counts, fields)
  for i, key in ipairs(wanted) do
    -- a value that is not a number (written by hand) counts as none
    state[key].c = nothingInFlight and 0 or tonumber(values[2 * i - 1] or '0') or 0
    state[key].t = tonumber(values[2 * i] or '0') or 0
  end
end
-- How many more members of a key may go now, `promised` of them already on their way.
local function room(key, promised)
  local s = state[key]
  local r = math.huge
  if conc > 0 then r = conc - s.c - promised end
  if perPermit > 0 then
    local ahead = math.floor((now + burst * perPermit - math.max(s.t, now)) / perPermit + 1e-9) - promised
    if ahead < r then r = ahead end
  end
  return math.max(0, r)
end
-- One member of a key goes: it takes a place and a permit.
local function take(key)
  local s = state[key]
  s.c = s.c + 1
  if perPermit > 0 then s.t = math.max(s.t, now) + perPermit end
  if not changed[key] then
    changed[key] = true
    changedList[#changedList + 1] = key
  end
end
-- When a key with parked members may go again, `promised` of them already on their way: '+inf' when it waits
-- for a place, else when its next permit conforms.
local function readyAt(key, promised)
  local s = state[key]
  if conc > 0 and s.c + promised >= conc then return '+inf' end
  if perPermit == 0 then return now end
  return string.format('%.17g', math.max(s.t, now) + (promised + 1 - burst) * perPermit)
end

local result = { POPPED, now, 0, epoch, 0, 0, 0 }
local out = newPopped()
local expiring = expiryKey and redis.call('ZCARD', expiryKey) > 0
if expiring then
  local expired, more = expireMembers({ store = storeKey, prepare = prepareKey, attempts = attemptsKey,
    failures = KEYS[11], dead = KEYS[10], expiry = expiryKey, trace = traceKey, parked = parkedOf(flow) }, topicType, now,
    2 * count, toDead)
  if expired > 0 and countersKey then
    redis.call('HINCRBY', countersKey, 'expired', expired)
    if toDead then redis.call('HINCRBY', countersKey, 'dead', expired) end
  end
  result[5] = expired
  if more then return result end
end
local unparked, parked = 0, 0
local readyKeys = redis.call('ZRANGEBYSCORE', flow.parked, '-inf', nothingInFlight and '+inf' or now, 'LIMIT', 0,
  math.max(16, count))
if #readyKeys > 0 then
  loadKeys(readyKeys)
  local back, rescore, gone = {}, {}, {}
  for _, key in ipairs(readyKeys) do
    local set = parkedKey(flow.parked, key)
    local r = math.min(room(key, 0), CHUNK)
    local moved = 0
    if r > 0 then
      local popped = redis.call(timed and 'ZPOPMIN' or 'ZPOPMAX', set, r)
      for j = 1, #popped, 2 do
        back[#back + 1] = popped[j + 1]
        back[#back + 1] = popped[j]
      end
      moved = #popped / 2
    end
    unparked = unparked + moved
    -- fewer than asked for: the set is empty. As many: it may be, and a later call finds out (no look-up per key)
    if r > 0 and moved < r then
      gone[#gone + 1] = key
    else
      rescore[#rescore + 1] = readyAt(key, moved)
      rescore[#rescore + 1] = key
    end
  end
  if #back > 0 then
    -- a copy sent meanwhile is the newer: RANGE_MERGE keeps the parked (first) score, the others the last sent
    if topicType == 'RANGE_MERGE' then callAll('ZADD', storeKey, back) else zaddWith('NX', storeKey, back) end
  end
  if #gone > 0 then callAll('ZREM', flow.parked, gone) end
  if #rescore > 0 then callAll('ZADD', flow.parked, rescore) end
end

local popped = 0
local skipped = 0
-- members left behind by a copy in flight, recorded for the commit of that copy
local blocked = {}
-- whether the rounds ended with due members not looked at (the caller then pops again at once)
local unseen = false
-- whether the attempts hash holds a count (read once, when the first member moves)
local retried = nil
-- Candidates blocked by an in-flight copy stay in the store queue and shift the window; a few
-- rounds bound the script's run time when many are blocked. Each round moves its members with
-- batch-wide commands.
for round = 1, 8 do
  local want = count - popped
  local fetch = math.max(want, 128)
  local members, runs = candidatesOf(storeKey, timed, now, skipped, fetch)
  if #members == 0 then break end
  local candidateScores = scoresOf(runs)
  local keys = keysOf(flow.keys, members)
  loadKeys(keys)
  -- members held back by their key, per key in pop order: score, member, ...
  local parking, parkingKeys, parkingAll = {}, {}, {}
  -- ZCARD first: the members of an empty prepare queue need no look-up (ZCARD checks the key's type too)
  local inFlight = {}
  if redis.call('ZCARD', prepareKey) > 0 then inFlight = callAll('ZMSCORE', prepareKey, members) end
  -- n counts the members moving, and indexes the tables below (cheaper than #t per element)
  local moving, origins, deadlines, movingRuns, n = {}, {}, {}, {}, 0
  local movingKeys = {}
  local full = false
  for i, member in ipairs(members) do
    if popped + n >= count then
      full = true
      break
    end
    local key = keys[i]
    if inFlight[i] then
      skipped = skipped + 1
      blocked[#blocked + 1] = member
    elseif key ~= '' and room(key, 0) == 0 then
      local list = parking[key]
      if list == nil then
        list = {}
        parking[key] = list
        parkingKeys[#parkingKeys + 1] = key
      end
      list[#list + 1] = candidateScores[i]
      list[#list + 1] = member
      parkingAll[#parkingAll + 1] = member
    else
      if key ~= '' then take(key) end
      n = n + 1
      moving[n] = member
      movingKeys[n] = key
      runAdd(movingRuns, candidateScores[i], 1)
      if not timed then
        origins[2 * n - 1] = member
        origins[2 * n] = candidateScores[i]
      end
      deadlines[2 * n - 1] = deadlineArg
      deadlines[2 * n] = member
    end
  end
  if #parkingAll > 0 then
    local when = {}
    for _, key in ipairs(parkingKeys) do
      -- a copy parked before is the older: RANGE_MERGE keeps its (first) score, the others take the last sent
      local set = parkedKey(flow.parked, key)
      if topicType == 'RANGE_MERGE' then zaddWith('NX', set, parking[key]) else callAll('ZADD', set, parking[key]) end
      when[#when + 1] = readyAt(key, 0)
      when[#when + 1] = key
    end
    callAll('ZADD', flow.parked, when)
    callAll('ZREM', storeKey, parkingAll)
    parked = parked + #parkingAll
  end
  if #moving > 0 then
    -- an empty attempts hash (no member of the slot failed before) needs no look-up either
    if retried == nil then
      retried = redis.call('HLEN', attemptsKey) > 0
      if retried then result[7] = 1 end
    end
    local failures = nil
    if retried then failures = callAll('HMGET', attemptsKey, moving) end
    if not timed then callAll('HSET', originKey, origins) end
    if expiring then
      if holdExpiries(expiryKey, KEYS[9], moving) then result[6] = 1 end
    end
    local traces = nil
    if traced and redis.call('HLEN', traceKey) > 0 then
      traces = callAll('HMGET', traceKey, moving)
      callAll('HDEL', traceKey, moving)
    end
    callAll('ZREM', storeKey, moving)
    if not blockedEmpty then takeBlocked(blockedKey, moving) end
    callAll('ZADD', prepareKey, deadlines)
    addPopped(out, moving, n, movingRuns, failures, traces, movingKeys)
    popped = popped + #moving
  end
  if full or popped >= count or #members < fetch then break end
  if round == 8 then unseen = true end
end
noteBlocked(blockedKey, blocked)

if #changedList > 0 then
  local fields = {}
  for _, key in ipairs(changedList) do
    fields[#fields + 1] = 'c:' .. key
    fields[#fields + 1] = state[key].c
    if perPermit > 0 then
      fields[#fields + 1] = 't:' .. key
      fields[#fields + 1] = string.format('%.17g', state[key].t)
    end
  end
  callAll('HSET', flow.counts, fields)
end
if countersKey and popped > 0 then redis.call('HINCRBY', countersKey, 'delivered', popped) end
if countersKey and parked > 0 then redis.call('HINCRBY', countersKey, 'parked', parked) end
if countersKey and unparked > 0 then redis.call('HINCRBY', countersKey, 'unparked', unparked) end

if popped < count then
  local nextDelay = -1
  if timed then
    local upcoming = redis.call('ZRANGEBYSCORE', storeKey, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if #upcoming > 0 then nextDelay = math.max(1, tonumber(upcoming[2]) - now) end
  end
  if unseen then nextDelay = 0 end
  local firstParked = redis.call('ZRANGE', flow.parked, 0, 0, 'WITHSCORES')
  if #firstParked > 0 and firstParked[2] ~= 'inf' then
    local delay = math.max(0, math.ceil(tonumber(firstParked[2]) - now))
    if nextDelay == -1 or delay < nextDelay then nextDelay = delay end
  end
  result[3] = nextDelay
end
return popReply(result, out)
