--[[
  send: stores messages in a slot's store queue, or merges each into a pending duplicate, in the
  order given (a later duplicate in the same call merges into the earlier one).

  A pending duplicate is the same member in the same store queue. Merge rules by topic type:
    RANGE_MERGE  score = now + range; a pending duplicate keeps its score (the first due time stands)
    PRIORITY     score = the priority; a pending duplicate takes the new score (the last priority stands)
    FIXED_TIME   score = the delivery time; a pending duplicate takes the new score (the last time stands)
  A copy that is being consumed (in the prepare queue) is not a pending duplicate.

  Expiry (KEYS[5]): the expiry of a pending member follows the same rule as its score. RANGE_MERGE: a
  pending duplicate keeps its expiry (the first send's due time and expiry stand); PRIORITY and
  FIXED_TIME: a merge takes the last send's expiry, and a last send without one clears it. A new member
  takes its send's expiry. Expiries travel in an optional section of ARGV, given only when a message of
  the call has one: a call without it writes nothing to the expiry set, and removes the entries of the
  members it merged (PRIORITY, FIXED_TIME) with one ZREM, only when it merged any.

  Trace contexts (KEYS[6]): a message sent with a trace context (the W3C traceparent of its send span) records it
  in the trace hash (entries as lib/trace.lua describes them): a new member starts its entry, a merge adds its
  context to the pending duplicate's entry while it holds fewer than the bound, and counts the send in any case.
  Contexts travel in an optional section of ARGV, given only when a message of the call has one: a call without
  it neither reads nor writes the trace hash.

  Keys for limits per key (KEYS[7]): with the FLOWKEY section each message's key is recorded in the flow keys hash
  (member -> key, one batch HSET per call; the last send of a member sets it). A call without it does not touch the
  hash.

  When the write may end an idle consumer's sleep (the slot was empty, the new member is due before
  the head that the consumer sleeps for, or the head is blocked behind an in-flight copy of itself;
  for a merged FIXED_TIME duplicate moved earlier: its new time is due, or is before the earliest
  member not yet due), a wake notice "<slot>:<delay ms>" is published on the topic's wake channel:
  one per call, with the smallest delay of its writes.

  Each message meets the store queue as the messages before it in the call left it, as if each were
  sent in a call of its own; Redis is read and written with batch-wide commands for the whole call
  (one ZMSCORE for the pending duplicates, one multi-member ZADD), and the head of the queue is read
  only when a message could wake a consumer sooner than the call already does.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           fields sent (every message of the call) and merged (of those, merged)
  KEYS[4]  split marker    split:<2 * amount>{<prefix><topic>_<slot>} (optional), where amount is the slot
                           amount the caller routed by: it exists once the slot was split by a growth of the
                           topic (see split_slot.lua), and the call is then refused
  KEYS[5]  expiry set      expiry{<prefix><topic>_<slot>}: member -> expiresAt (optional; without it expiries
                           are neither written nor cleared)
  KEYS[6]  trace hash      trace{<prefix><topic>_<slot>}: member -> trace entry (optional; needed with TRACE)
  KEYS[7..] optional keys, each recognised by its name before the hash tag (lib/optional_keys.lua), in any order:
           since{<prefix><topic>_<slot>}: member -> its first send time, ms (priority aging; needed with AGING)
           tenants{<prefix><topic>_<slot>} and fair{<prefix><topic>_<slot>} (field vt, the slot's virtual time):
           fair share, lib/fair.lua. KEYS[1] is then a tenant's queue tq:<tenant>{<prefix><topic>_<slot>}, or the
           store queue for the default tenant; the tenant takes part in the slot's fair share with
           pass = max(its pass, vt), so merges are per (slot, tenant) and an idle tenant banks no credit
           flowkey{<prefix><topic>_<slot>}: member -> its key for limits per key (needed with FLOWKEY; see
           pop_flow.lua)

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[3]  slot            the slot number, echoed in the wake notice
  ARGV[4..] pairs          the messages: value, member, value, member, ...
           or, with expiries: 'EXPIRES', then triples value, member, expiry, ... where expiry is
           the time it expires in ms since the epoch (Redis clock), '+<ms>' for that long after now, or
           0 for a message without expiry
           then, with trace contexts: 'TRACE', the most contexts an entry keeps (>= 0), and each message
           takes one more element after the others: its traceparent, or '' for none
           (for example 'EXPIRES', 'TRACE', 32, then value, member, expiry, traceparent, ...)
           then, with priority aging (PRIORITY only, lib/aging.lua): 'AGING', the pace (priority points per ms, a
           decimal > 0) and the topic's aging epoch (ms): each score becomes p - pace * (e - epoch), e the
           member's first send time (a pending duplicate keeps its entry in since{...}, or the epoch without one)
           then (after AGING), with keys for limits per key: 'FLOWKEY', and each message takes one more element after the others:
           its key, recorded in the flow keys hash; '' for a message without one (sent without a slot basis), which is
           not limited (a member without an entry, written without the section, counts as the key ~slot)
           value           RANGE_MERGE: time range in ms (> 0); PRIORITY: the priority;
                           FIXED_TIME: delivery time in ms since the epoch (Redis clock)
           member          the message content

  Returns  { status1, score1, status2, score2, ... }, one pair per message in the order given
           status  1 = stored as a new message, 0 = merged into a pending duplicate
           score   the member's score after its write (with AGING the aged score), as a string
           or, when every message was stored as new and the call carried neither EXPIRES, TRACE, AGING nor FLOWKEY
           (and no fair share keys): { 2, now }, now the Redis clock in ms; each message's score is then its value
           (RANGE_MERGE: now + its value)
  Errors   (codes in lib/errors.lua)
           "RMQ_BAD_TYPE <type>" for an unknown topic type;
           "RMQ_BAD_VALUE <value>" for a value that is not a number;
           "RMQ_SPLIT <split marker>" when KEYS[4] exists: route again by twice the amount;
           nothing is stored
]]
if redis.replicate_commands then redis.replicate_commands() end
-- #include lib/errors.lua: ERRORS (the error codes) and fail(code, detail)

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local countersKey = KEYS[3]
local expiryKey   = KEYS[5]
local traceKey    = KEYS[6]
local topicType   = ARGV[1]

-- growth: the slot was split, the caller routes by an amount that is no longer the topic's
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
  return fail(ERRORS.SPLIT, KEYS[4])
end

local wakeChannel = ARGV[2]
local slot        = ARGV[3]
-- #include lib/clock.lua: redisNow()
-- #include lib/wake.lua: publishWake(channel, slot, delay)

local now = redisNow()

local timed = topicType ~= 'PRIORITY'
if topicType ~= 'RANGE_MERGE' and topicType ~= 'FIXED_TIME' and topicType ~= 'PRIORITY' then
  return fail(ERRORS.BAD_TYPE, topicType)
end

-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/optional_keys.lua: optionalKeys(first)
local optional = optionalKeys(7)

local members, scores, expiries, traces = {}, nil, nil, nil
local withExpiries = ARGV[4] == 'EXPIRES'
local first, step = 4, 2
if withExpiries then first, step, expiries = 5, 3, {} end
local withTraces = ARGV[first] == 'TRACE' and traceKey ~= nil
local maxLinks = 0
if withTraces then
  maxLinks = tonumber(ARGV[first + 1])
  if maxLinks == nil then return fail(ERRORS.BAD_VALUE, ARGV[first + 1]) end
  first, step, traces = first + 2, step + 1, {}
end
-- priority aging (lib/aging.lua): only with its section, for PRIORITY, with the since hash
local aging = nil
if ARGV[first] == 'AGING' then
  aging = { pace = tonumber(ARGV[first + 1]), epoch = tonumber(ARGV[first + 2]) }
  if aging.pace == nil or aging.pace <= 0 then return fail(ERRORS.BAD_VALUE, ARGV[first + 1]) end
  if aging.epoch == nil then return fail(ERRORS.BAD_VALUE, ARGV[first + 2]) end
  if topicType ~= 'PRIORITY' or optional.since == nil then aging = nil end
  first = first + 3
end
local flowKeysKey = optional.flowkey
local withKeys = ARGV[first] == 'FLOWKEY' and flowKeysKey ~= nil
local keysOf = nil
if withKeys then first, step, keysOf = first + 1, step + 1, {} end
-- a message's trace context follows its value, member and expiry
local traceAt = withExpiries and 3 or 2
-- n counts the messages and indexes their tables (cheaper than #t per element)
local n = 0
-- where the messages' values are in ARGV (the plain path below hands them to ZADD as they came)
local valuesFrom, valuesStep = first, step
local merging = topicType == 'RANGE_MERGE'
-- A value's number, converted once per distinct text: the messages of a call often share their value (a
-- delivery time in ms, a priority, a range), and the texts are interned Lua strings, compared by reference.
local lastText, lastValue = nil, nil
local function valueOf(text)
  if text ~= lastText then lastText, lastValue = text, tonumber(text) end
  return lastValue
end
-- The message at index i's score.
local function scoreOf(i)
  local value = valueOf(ARGV[valuesFrom + valuesStep * (i - 1)])
  return merging and now + value or value
end
-- A plain call carries nothing but values and members (no expiry, trace context, aging, key or tenant): its
-- messages are read into the members alone, with the lowest and highest value, and it takes the plain path
-- below when every message is new; the scores are built only for the general path.
local plain = not withExpiries and not withTraces and not aging and not withKeys and not optional.fair
local lowest, highest = nil, nil
if plain then
  -- a value is converted and compared once per run of equal texts (messages sent together often share their
  -- value): the loop then only gathers the members
  local text = nil
  for i = first, #ARGV, 2 do
    if ARGV[i] ~= text then
      text = ARGV[i]
      local value = valueOf(text)
      if value == nil then return fail(ERRORS.BAD_VALUE, text) end
      if lowest == nil or value < lowest then lowest = value end
      if highest == nil or value > highest then highest = value end
    end
    n = n + 1
    members[n] = ARGV[i + 1]
  end
else
  scores = {}
  for i = first, #ARGV, step do
    local value = valueOf(ARGV[i])
    if value == nil then return fail(ERRORS.BAD_VALUE, ARGV[i]) end
    n = n + 1
    members[n] = ARGV[i + 1]
    scores[n] = merging and now + value or value
    if withExpiries then
      local expiry = ARGV[i + 2]
      local expiresAt = tonumber(expiry)
      if expiresAt == nil then return fail(ERRORS.BAD_VALUE, expiry) end
      if string.sub(expiry, 1, 1) == '+' then expiresAt = now + expiresAt end
      expiries[n] = expiresAt
    end
    if withTraces then traces[n] = ARGV[i + traceAt] end
    if withKeys then keysOf[n] = ARGV[i + step - 1] end
  end
end

-- A key of the wrong type (written by another client) must fail the call before anything is
-- stored, or a message would be stored and reported as failed: the store queue is read here, the
-- prepare queue before the first write (checkPrepare), the counters hash before the first write as well.
local current = {}  -- member -> its score in the store queue as this call's writes leave it; false: absent
local found = callAll('ZMSCORE', storeKey, members)

local prepareRead = false
local function checkPrepare()
  if not prepareRead then redis.call('ZCARD', prepareKey) end
  prepareRead = true
end

-- Whether a member is in the prepare queue: read once for the initial head, and once for all the
-- call's members when one of them becomes the head (the send never changes the prepare queue).
local inFlight = {}
local callRead = false
local function readCallInPrepare()
  if not callRead then
    callRead = true
    local distinct, seen = {}, {}
    for _, m in ipairs(members) do
      if not seen[m] then seen[m] = true; distinct[#distinct + 1] = m end
    end
    local scoresThere = callAll('ZMSCORE', prepareKey, distinct)
    for i, m in ipairs(distinct) do inFlight[m] = scoresThere[i] and true or false end
  end
end
local function inPrepare(member)
  if inFlight[member] == nil then
    if current[member] ~= nil then readCallInPrepare() end
    if inFlight[member] == nil then inFlight[member] = redis.call('ZSCORE', prepareKey, member) and true or false end
    prepareRead = true
  end
  return inFlight[member]
end

-- Whether a member of this call is in the prepare queue: one ZCARD when the queue is empty, else one look-up of
-- all the call's members (inPrepare's).
local callInPrepare = nil
local function anyInPrepare()
  if callInPrepare == nil then
    callInPrepare = false
    if redis.call('ZCARD', prepareKey) > 0 then
      readCallInPrepare()
      for _, m in ipairs(members) do
        if inFlight[m] then callInPrepare = true break end
      end
    end
    prepareRead = true
  end
  return callInPrepare
end

-- Zset order of members with equal scores: by their bytes (Lua's own string comparison follows the
-- locale). Eight bytes of each per string.byte call: the calls, not the comparisons, cost.
local byte = string.byte
local function bytesBefore(a, b)
  if a == b then return false end
  local n = math.min(#a, #b)
  for i = 1, n, 8 do
    local a1, a2, a3, a4, a5, a6, a7, a8 = byte(a, i, i + 7)
    local b1, b2, b3, b4, b5, b6, b7, b8 = byte(b, i, i + 7)
    if a1 ~= b1 then return (a1 or -1) < (b1 or -1) end
    if a2 ~= b2 then return (a2 or -1) < (b2 or -1) end
    if a3 ~= b3 then return (a3 or -1) < (b3 or -1) end
    if a4 ~= b4 then return (a4 or -1) < (b4 or -1) end
    if a5 ~= b5 then return (a5 or -1) < (b5 or -1) end
    if a6 ~= b6 then return (a6 or -1) < (b6 or -1) end
    if a7 ~= b7 then return (a7 or -1) < (b7 or -1) end
    if a8 ~= b8 then return (a8 or -1) < (b8 or -1) end
  end
  return #a < #b
end

-- Whether (s1, m1) comes before (s2, m2) in the order consumers pop: the head is the first.
local function popsBefore(s1, m1, s2, m2)
  if s1 ~= s2 then
    if timed then return s1 < s2 end
    return s1 > s2
  end
  if timed then return bytesBefore(m1, m2) end
  return bytesBefore(m2, m1)
end

-- the delay of the wake notice the call publishes (0: at once), nil while none
local wakeDelay = nil
-- Quiet: the head is due (any head for PRIORITY), not in the prepare queue, and no member of the call is in the
-- prepare queue. While the call only adds new members the head stays such a member (a new member that becomes the
-- head is one of the call's), so no new member can wake a consumer: they skip the head's look-up, and the head
-- tracker is recomputed from the written members when a merge needs it again. A merge that writes ends it.
local quiet = false

-- The queue's first member in pop order, with its score: { member, score }, or {} when the queue is empty.
local function readHead()
  if timed then return redis.call('ZRANGE', storeKey, 0, 0, 'WITHSCORES') end
  return redis.call('ZREVRANGE', storeKey, 0, 0, 'WITHSCORES')
end

-- A new message of `score`, meeting the head of the queue (headMember, headScore; nil: empty) as the writes before it
-- left it: it wakes a consumer when the queue was empty, when it is due before a head not yet due, or when the head
-- is blocked behind its copy in flight; when the head is due and nothing of the call is in flight, a consumer is
-- popping already and no later message of the call needs to look (quiet). Asked only when the call does not wake
-- one as soon already (wakesSooner).
local function delayOf(score)
  if timed and score > now then return score - now end
  return 0
end
local function wakesSooner(delay) return not quiet and (wakeDelay == nil or delay < wakeDelay) end
local function meetHead(score, delay, headMember, headScore)
  if headMember == nil or (timed and headScore > now and score < headScore) or inPrepare(headMember) then
    wakeDelay = delay
  elseif (not timed or headScore <= now) and not anyInPrepare() then
    quiet = true
  end
end

-- The plain path: a plain call whose messages are all new (none pending in the store queue). Each message is stored
-- with its score, by one ZADD of the values as they came; the wake notice follows the rule the general path below
-- applies message by message, with the head of the queue as the writes so far leave it; the reply is { 2, now }. A
-- member given twice in the call shows in ZADD's count of members added: none of the call's members was in the store
-- queue, so removing them all undoes the write, and the call takes the general path (which merges the later copy
-- into the earlier one).
local function sendPlain()
  for i = 1, n do
    if found[i] then return nil end
  end
  if countersKey then redis.call('HEXISTS', countersKey, '') end
  local headMember, headScore
  local read = readHead()
  if #read > 0 then headMember, headScore = read[1], tonumber(read[2]) end
  -- Every message scored strictly behind a head that is due and not in flight: the head stays, so none can wake a
  -- consumer, whether or not a copy of it is in flight; quiet without reading the prepare queue for the call's members.
  if headMember ~= nil and (not timed or headScore <= now) and not inPrepare(headMember) then
    local shift = merging and now or 0
    if timed then quiet = lowest + shift > headScore else quiet = highest < headScore end
  end
  for i = 1, n do
    if quiet or wakeDelay == 0 then break end
    local member, score = members[i], scoreOf(i)
    local delay = delayOf(score)
    if wakesSooner(delay) then meetHead(score, delay, headMember, headScore) end
    if headMember == nil or popsBefore(score, member, headScore, headMember) then
      headMember, headScore = member, score
    end
  end
  checkPrepare()
  -- The scores as text, so that redis.call does not format a number per member: a FIXED_TIME or PRIORITY value as
  -- it came, the call's own arguments handed on (ZADD parses each as tonumber did above; one padded with spaces,
  -- which tonumber accepts, ZADD refuses, storing nothing), a RANGE_MERGE due time formatted once per distinct score.
  local added = 0
  if merging then
    local args, text = {}, {}
    for i = 1, n do
      local score = scoreOf(i)
      local t = text[score]
      if t == nil then
        t = string.format('%.17g', score)
        text[score] = t
      end
      args[2 * i - 1] = t
      args[2 * i] = members[i]
    end
    added = callAll('ZADD', storeKey, args)
  else
    for from = valuesFrom, #ARGV, CHUNK do
      added = added + redis.call('ZADD', storeKey, unpack(ARGV, from, math.min(from + CHUNK - 1, #ARGV)))
    end
  end
  if added < n then
    callAll('ZREM', storeKey, members)
    wakeDelay, quiet = nil, false
    return nil
  end
  if wakeDelay ~= nil then publishWake(wakeChannel, slot, wakeDelay) end
  if countersKey then redis.call('HINCRBY', countersKey, 'sent', n) end
  return { 2, now }
end
if plain and n > 0 then
  local reply = sendPlain()
  if reply then return reply end
  scores = {}
  for i = 1, n do scores[i] = scoreOf(i) end
end

-- Defined here, after the plain path, which needs none of them: a closure costs Redis more the more
-- of this chunk's locals it captures, and the plain path's calls should not pay for the general path's.
-- #include lib/trace.lua: mergeTrace(old, new, maxLinks)
-- #include lib/aging.lua: ageScores(sinceKey, pace, epoch, now, members, scores, current)
-- #include lib/fair.lua: fair share between tenants

--[[ The head (first member in pop order) and, for FIXED_TIME, the earliest member not yet due, as
  the messages before the current one left the store queue, without reading it per message: the
  queue as it was (read once, when first needed) and the best of the members this call wrote. A
  member of the queue as it was that this call moved back is not the head any more, and what follows
  it is unknown: the writes so far are then flushed to Redis and the queue read again. ]]
local written, writtenList = {}, {}  -- members this call wrote since the last flush
local function reset(tracker)
  tracker.loaded, tracker.unknown, tracker.stale = false, false, false
  tracker.initial, tracker.initialScore, tracker.best, tracker.bestScore = nil, nil, nil, nil
end
local head = { qualifies = function(score) return true end, read = readHead }
local upcoming = { qualifies = function(score) return score > now end, read = function()
  return redis.call('ZRANGEBYSCORE', storeKey, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
end }
reset(head)
reset(upcoming)


-- Notes a write of `member` at `score` in a tracker.
local function track(tracker, member, score)
  -- The queue's first member as it was: the members this call did not write are behind its place
  -- there. While the call keeps it at or before that place, the head is among the written members;
  -- moved behind it, what follows is unknown.
  if tracker.loaded and tracker.initial == member
      and not (tracker.qualifies(score) and not popsBefore(tracker.initialScore, member, score, member)) then
    tracker.unknown = true
  end
  if tracker.best == member then
    if tracker.qualifies(score) and not popsBefore(tracker.bestScore, member, score, member) then
      tracker.bestScore = score
    else
      tracker.stale = true -- find the best written member again when it is needed
    end
  elseif not tracker.stale and tracker.qualifies(score)
      and (tracker.best == nil or popsBefore(score, member, tracker.bestScore, tracker.best)) then
    tracker.best, tracker.bestScore = member, score
  end
end

local function write(member, score)
  current[member] = score
  if not written[member] then
    written[member] = true
    writtenList[#writtenList + 1] = member
  end
  -- Once the call wakes the slot's consumers at once, no later message asks for the head or the
  -- upcoming member (a wake cannot come sooner): the trackers need no more updates.
  if wakeDelay ~= 0 then
    if quiet then head.stale = true else track(head, member, score) end
    if topicType == 'FIXED_TIME' then track(upcoming, member, score) end
  end
end

-- Writes this call's members to Redis.
local function flush()
  checkPrepare()
  for from = 1, #writtenList, CHUNK / 2 do
    local args, a = {}, 0
    for i = from, math.min(from + CHUNK / 2 - 1, #writtenList) do
      local member = writtenList[i]
      args[a + 1] = current[member]
      args[a + 2] = member
      a = a + 2
    end
    redis.call('ZADD', storeKey, unpack(args))
  end
  written, writtenList = {}, {}
  reset(head)
  reset(upcoming)
end

-- The tracker's first member and its score, or nil when it has none.
local function first(tracker)
  if tracker.unknown then flush() end
  if not tracker.loaded then
    local read = tracker.read()
    tracker.loaded = true
    if #read > 0 then
      tracker.initial, tracker.initialScore = read[1], tonumber(read[2])
      if written[read[1]] then track(tracker, read[1], current[read[1]]) end
    end
    if tracker.unknown then return first(tracker) end
  end
  if tracker.stale then
    tracker.best, tracker.bestScore, tracker.stale = nil, nil, false
    for _, member in ipairs(writtenList) do
      local score = current[member]
      if tracker.qualifies(score) and (tracker.best == nil or popsBefore(score, member, tracker.bestScore, tracker.best)) then
        tracker.best, tracker.bestScore = member, score
      end
    end
  end
  local member, score
  if not written[tracker.initial] then member, score = tracker.initial, tracker.initialScore end
  if tracker.best ~= nil and (member == nil or popsBefore(tracker.bestScore, tracker.best, score, member)) then
    member, score = tracker.best, tracker.bestScore
  end
  return member, score
end


-- Stores or merges one message; returns its status (1 stored, 0 merged).
local function send(member, score)
  local existing = current[member]
  if existing then
    if topicType ~= 'RANGE_MERGE' then
      quiet = false
      -- A consumer with nothing due sleeps until the earliest member not yet due (found before the
      -- write, as this member may be that one): a duplicate moved before it must wake the consumer.
      if timed and score < existing then
        local delay = math.max(0, score - now)
        if wakeDelay == nil or delay < wakeDelay then
          local wake = score <= now
          if not wake then
            local _, upcomingScore = first(upcoming)
            wake = upcomingScore ~= nil and score < upcomingScore
          end
          if wake then wakeDelay = delay end
        end
      end
      write(member, score)
    end
    return 0
  end

  -- Decide before adding whether an idle consumer of this slot needs waking
  local delay = delayOf(score)
  if wakesSooner(delay) then meetHead(score, delay, first(head)) end
  write(member, score)
  return 1
end

-- The general path: the messages one by one, as if each were sent in a call of its own.
for i, member in ipairs(members) do
  if current[member] == nil then current[member] = found[i] and tonumber(found[i]) or false end
end
if countersKey then redis.call('HEXISTS', countersKey, '') end
if withExpiries and expiryKey then redis.call('ZCARD', expiryKey) end
if withTraces then redis.call('HLEN', traceKey) end
if aging then ageScores(optional.since, aging.pace, aging.epoch, now, members, scores, current) end
if withKeys then redis.call('HLEN', flowKeysKey) end

local result = {}
local stored = 0
-- a score's reply text, formatted once per distinct score (messages sent together often share one)
local scoreText = {}
-- member -> its expiresAt as this call leaves it, or false to clear it; nil: untouched
local expiryOf, expiryTouched = {}, {}
for i, member in ipairs(members) do
  local status = send(member, scores[i])
  stored = stored + status
  result[2 * i - 1] = status
  local score = current[member]
  local text = scoreText[score]
  if text == nil then
    text = string.format('%.17g', score)
    -- not NaN (no table key; ZADD refuses it later), nor 0, whose key -0 shares and formats otherwise
    if score == score and score ~= 0 then scoreText[score] = text end
  end
  result[2 * i] = text
  if status == 1 or topicType ~= 'RANGE_MERGE' then
    local expiresAt = false
    if withExpiries and expiries[i] > 0 then expiresAt = expiries[i] end
    -- without the section, a new member has nothing to clear: only merges touch the set
    if withExpiries or status == 0 then
      if expiryOf[member] == nil then expiryTouched[#expiryTouched + 1] = member end
      expiryOf[member] = expiresAt
    end
  end
end
flush()
if expiryKey and #expiryTouched > 0 then
  local set, clear = {}, {}
  for _, member in ipairs(expiryTouched) do
    if expiryOf[member] then
      set[#set + 1] = expiryOf[member]
      set[#set + 1] = member
    else
      clear[#clear + 1] = member
    end
  end
  if #clear > 0 then callAll('ZREM', expiryKey, clear) end
  if #set > 0 then callAll('ZADD', expiryKey, set) end
end
if withTraces then
  -- the entries of the members merged into: read once, for the members traced in this call
  local traced, tracedSeen = {}, {}
  for i, member in ipairs(members) do
    if traces[i] ~= '' and not tracedSeen[member] then
      tracedSeen[member] = true
      traced[#traced + 1] = member
    end
  end
  local entries, entryOf = callAll('HMGET', traceKey, traced), {}
  for i, member in ipairs(traced) do entryOf[member] = entries[i] end
  local written, toWrite = {}, {}
  for i, member in ipairs(members) do
    if traces[i] ~= '' then
      -- a new member starts its entry (one left by a copy in flight belongs to that copy's consumer)
      local base = entryOf[member]
      if result[2 * i - 1] == 1 and not written[member] then base = nil end
      entryOf[member] = mergeTrace(base, '1 - ' .. traces[i], maxLinks)
      if not written[member] then
        written[member] = true
        toWrite[#toWrite + 1] = member
      end
    end
  end
  local fields = {}
  for _, member in ipairs(toWrite) do
    fields[#fields + 1] = member
    fields[#fields + 1] = entryOf[member]
  end
  callAll('HSET', traceKey, fields)
end
if optional.fair then fairRegister(optional.tenants, optional.fair, string.match(storeKey, '^tq:([^{]*){') or '') end
if withKeys then
  local fields = {}
  for i, member in ipairs(members) do
    fields[2 * i - 1] = member
    fields[2 * i] = keysOf[i]
  end
  callAll('HSET', flowKeysKey, fields)
end
if wakeDelay ~= nil then
  publishWake(wakeChannel, slot, wakeDelay)
end
if countersKey then
  local sent = #members
  redis.call('HINCRBY', countersKey, 'sent', sent)
  if sent > stored then redis.call('HINCRBY', countersKey, 'merged', sent - stored) end
end
return result
