--[[
  rollback: returns members from a slot's prepare queue to its store queue after a failed or
  abandoned delivery, or moves them to the dead queue once they have been delivered 1 + maxRetries
  times. Used both for explicit rollbacks (nack, shutdown) and by the sweeper for members whose
  prepare deadline has passed.

  For each selected member that is still in the prepare queue, its failed-delivery count is
  incremented and its last failure recorded in the failures hash (kept while the message is retried
  or dead, removed by a commit, a merge, a requeue or a purge), then:
    - count > maxRetries: the member moves to the dead queue, scored with the time of death (ms);
    - a pending copy exists in the store queue (the content was sent again meanwhile): the rolled-back
      delivery is merged into that copy, which keeps its score and starts with a fresh attempt count;
    - RANGE_MERGE / FIXED_TIME: back to the store queue, due after a backoff of
      min(backoffBase * 2^(count - 1), backoffMax) ms;
    - PRIORITY: back to the store queue behind the pending messages: score =
      min(its priority, lowest pending score - 1).
  Members not in the prepare queue (already committed or rolled back) are skipped.
  Expiry (KEYS[9], KEYS[10] given): a member that was popped with an expiry (held expiry hash) gets it back
  in the expiry set when it returns to the store queue (the next pop expires it if it has passed); moved to
  the dead queue or merged into a pending copy (which keeps its own), its held expiry is dropped.
  Trace contexts (KEYS[11]): a member moved to the dead queue loses its trace entry (unless a pending copy owns it).
  With selection 'traced' the caller gives each member's trace entry back (pop.lua took it out; lib/trace.lua),
  with the context of the failed delivery's process span as its attempt: a requeued member gets it back, a member
  merged into a pending copy adds it to the copy's entry (at most ARGV[10] contexts kept). Without it (the
  consumer does not trace, or the sweeper rolls back for a consumer that is gone) the hash keeps what it holds.

  A wake notice "<slot>:<delay ms>" is published on the wake channel when a member became poppable:
  a requeued member, or a pending copy that was blocked behind the rolled-back delivery (merged or
  dead); the delay is the smallest time until one of them is due (0 for PRIORITY). A notice with
  delay 0 is also published when the rollback empties the prepare queue while a handover is pending
  (see pop.lua), so the slot's new owner starts popping at once.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[4]  origin hash     origin{<prefix><topic>_<slot>}
  KEYS[5]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[6]  owner hash      owner{<prefix><topic>_<slot>} (read only: its handover field)
  KEYS[7]  failures hash   failures{<prefix><topic>_<slot>}: member -> "<deliveries>\t<priority>\t<failure>"
  KEYS[8]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           fields nacked (failed or expired deliveries rolled back) and dead (of those, dead)
  KEYS[9]  expiry set      expiry{<prefix><topic>_<slot>} (optional, with KEYS[10])
  KEYS[10] held expiry     held-expiry{<prefix><topic>_<slot>}
  KEYS[11] trace hash      trace{<prefix><topic>_<slot>}: member -> trace entry (optional)
  KEYS[12..] optional keys, each recognised by its name before the hash tag (lib/optional_keys.lua), in any order:
           since{<prefix><topic>_<slot>} (priority aging: lib/aging.lua): a member moved to the dead queue loses its
           first send time (unless a pending copy owns it); a requeued member keeps it, so it keeps aging from its
           first send (its score is lowered by the rule above, and the priority it reports,
           score + pace * (since - epoch), with it)
           tenant{<prefix><topic>_<slot>} (member in flight -> its tenant), with tenants{<prefix><topic>_<slot>} and
           fair{<prefix><topic>_<slot>} (fair share, lib/fair.lua): a member popped from a tenant's queue goes back
           to that queue (merging with a pending copy there), the tenant takes part again, and the entry goes
           flowkey{<prefix><topic>_<slot>} (member -> key), with keyflow{<prefix><topic>_<slot>} (key counts) and
           parkedkeys{<prefix><topic>_<slot>} (the consumer limits keys, see pop_flow.lua): the members leaving the
           prepare queue free their keys' places, and the entries of members moved to the dead queue go (unless a
           copy is pending or parked); a key parked until a place frees is marked ready, and a wake notice
           "<slot>:0" is published

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  max retries     deliveries after the first before the dead queue (>= 0)
  ARGV[3]  backoff base    ms before the first retry of a timed message
  ARGV[4]  backoff max     ms, the cap of the exponential backoff
  ARGV[5]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[6]  slot            the slot number, echoed in the wake notice
  ARGV[7]  selection       'members': roll back ARGV[10..]; 'expired': roll back up to ARGV[8]
                           members whose prepare deadline has passed; 'traced': roll back the members of
                           the pairs ARGV[11..] (member, trace entry or ''), ARGV[10] the most contexts kept
  ARGV[8]  limit           most expired members to roll back (selection 'expired')
  ARGV[9]  failure         why the delivery failed, "<exception class>: <message>" (bounded by the caller)
  ARGV[10..] members       the members to roll back (selection 'members')

  Returns  { requeued, merged, dead }
]]
if redis.replicate_commands then redis.replicate_commands() end

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local attemptsKey = KEYS[3]
local originKey   = KEYS[4]
local deadKey     = KEYS[5]
local ownerKey    = KEYS[6]
local failuresKey = KEYS[7]
local countersKey = KEYS[8]
local expiryKey   = KEYS[9]
local heldKey     = KEYS[10]
local topicType   = ARGV[1]
local maxRetries  = tonumber(ARGV[2])
local backoffBase = tonumber(ARGV[3])
local backoffMax  = tonumber(ARGV[4])
local wakeChannel = ARGV[5]
local slot        = ARGV[6]
local selection   = ARGV[7]
local limit       = tonumber(ARGV[8])
local failure     = ARGV[9]
local traceKey    = KEYS[11]
local traced      = selection == 'traced' and traceKey ~= nil
-- #include lib/clock.lua: redisNow()
-- #include lib/wake.lua: publishWake(channel, slot, delay)

local now = redisNow()

-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/trace.lua: mergeTrace(old, new, maxLinks)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
-- #include lib/fair.lua: fair share between tenants
-- #include lib/optional_keys.lua: optionalKeys(first)
local optional    = optionalKeys(12)
local sinceKey    = optional.since
local flow        = optional.flowkey and { keys = optional.flowkey, counts = optional.keyflow,
  parked = optional.parkedkeys } or nil

-- the selected members still in the prepare queue, once each, and the trace entries given back
local members, givenTrace = {}, {}
if selection == 'expired' then
  members = redis.call('ZRANGEBYSCORE', prepareKey, '-inf', now, 'LIMIT', 0, limit)
else
  local given, seen = {}, {}
  local first, step = 10, 1
  if selection == 'traced' then first, step = 11, 2 end
  for i = first, #ARGV, step do
    if not seen[ARGV[i]] then
      seen[ARGV[i]] = true
      given[#given + 1] = ARGV[i]
      if step == 2 and ARGV[i + 1] ~= '' then givenTrace[ARGV[i]] = ARGV[i + 1] end
    end
  end
  local inPrepare = callAll('ZMSCORE', prepareKey, given)
  for i, member in ipairs(given) do
    if inPrepare[i] then members[#members + 1] = member end
  end
end

-- A key of the wrong type (written by another client) must fail the call before a member leaves the
-- prepare queue, or the member would be in no queue at all. Rollbacks are rare: check every key
-- (the reads of the members' state check the keys they read).
local attempts, origins, pending, held = {}, {}, {}, {}
-- fair share: each member's tenant and queue (nil without the in-flight tenants hash: the store queue)
local fairTenants, fairQueues = nil, nil
if #members > 0 then
  attempts = callAll('HMGET', attemptsKey, members)
  origins = callAll('HMGET', originKey, members)
  if optional.tenant then
    fairTenants, fairQueues = fairQueuesOf(optional.tenant, storeKey, members)
    pending = fairScores(fairQueues, members)
  else
    pending = callAll('ZMSCORE', storeKey, members)
  end
  if heldKey then
    held = callAll('HMGET', heldKey, members)
    redis.call('ZCARD', expiryKey)
  end
else
  redis.call('ZCARD', storeKey)
  redis.call('HEXISTS', attemptsKey, '')
  redis.call('HEXISTS', originKey, '')
end
redis.call('ZCARD', deadKey)
local handover = redis.call('HEXISTS', ownerKey, 'handover') == 1
redis.call('HEXISTS', failuresKey, '')
if countersKey then redis.call('HEXISTS', countersKey, '') end
local pendingTraces = {}
if traceKey then
  redis.call('HLEN', traceKey)
  if traced and #members > 0 then pendingTraces = callAll('HMGET', traceKey, members) end
end
if sinceKey then redis.call('HLEN', sinceKey) end

local requeued, merged, dead = 0, 0, 0
local wakeDelay = nil
local function wakeIn(delay)
  if wakeDelay == nil or delay < wakeDelay then wakeDelay = delay end
end

-- the writes, gathered per command: { score, member, ... } or { field, value, ... } or { member, ... }
local toStore, toDead, countsKept, countsDropped, failuresKept, failuresDropped = {}, {}, {}, {}, {}, {}
local toExpiry, heldDropped, tracesKept, tracesDropped = {}, {}, {}, {}
local function push(list, a, b)
  list[#list + 1] = a
  if b ~= nil then list[#list + 1] = b end
end
local lowestOf = {} -- PRIORITY: per queue, the lowest score in it as the requeues so far leave it (false: empty)
local toQueues, backToQueue = {}, {} -- fair share: queue -> { score, member, ... } requeued there; member -> true
local deadAlone = {} -- limits per key: members moved to the dead queue without a pending copy
for i, member in ipairs(members) do
  -- not HINCRBY: a count that is not a number (written by hand) would fail the call for good and
  -- leave the member in the prepare queue; it counts as 0 and is replaced
  local failures = math.floor(tonumber(attempts[i] or '0') or 0) + 1
  local priority = origins[i] or nil
  -- the last failure, with what a requeue from the dead queue needs (the priority)
  local failureText = failures .. '\t' .. (priority or '') .. '\t' .. failure
  -- pop skipped this pending copy while the delivery was in flight; it can be popped from now on
  local pendingScore = pending[i] and tonumber(pending[i])
  if held[i] then push(heldDropped, member) end
  if pendingScore then
    wakeIn(topicType == 'PRIORITY' and 0 or math.max(0, pendingScore - now))
  end
  if failures > maxRetries then
    push(toDead, now, member)
    push(countsDropped, member)
    push(failuresKept, member, failureText)
    if not pendingScore then push(tracesDropped, member) end
    if flow and not pendingScore then deadAlone[member] = true end
    dead = dead + 1
  elseif pendingScore then
    push(countsDropped, member)
    push(failuresDropped, member)
    local entry = givenTrace[member] and mergeTrace(pendingTraces[i], givenTrace[member], tonumber(ARGV[10]) or 0)
    if entry then push(tracesKept, member, entry) end
    merged = merged + 1
  else
    local score
    local delay = 0
    if topicType == 'PRIORITY' then
      -- a priority that is not a number (written by hand) counts as 0: the member must land somewhere
      score = tonumber(priority or '0') or 0
      local queue = fairQueues and fairQueues[i] or storeKey
      local lowest = lowestOf[queue]
      if lowest == nil then
        local read = redis.call('ZRANGE', queue, 0, 0, 'WITHSCORES')
        lowest = #read > 0 and tonumber(read[2]) or false
      end
      if lowest then score = math.min(score, lowest - 1) end
      if not lowest or score < lowest then lowestOf[queue] = score end
    else
      delay = math.min(backoffBase * math.pow(2, failures - 1), backoffMax)
      score = now + delay
    end
    if fairQueues then
      toQueues[fairQueues[i]] = toQueues[fairQueues[i]] or {}
      push(toQueues[fairQueues[i]], score, member)
      backToQueue[member] = true
    else
      push(toStore, score, member)
    end
    if held[i] then push(toExpiry, held[i], member) end
    push(countsKept, member, failures)
    push(failuresKept, member, failureText)
    if givenTrace[member] then push(tracesKept, member, givenTrace[member]) end
    requeued = requeued + 1
    wakeIn(delay)
  end
end
if #members > 0 then
  callAll('ZREM', prepareKey, members)
  callAll('HDEL', originKey, members)
  if #countsKept > 0 then callAll('HSET', attemptsKey, countsKept) end
  if #countsDropped > 0 then callAll('HDEL', attemptsKey, countsDropped) end
  if #failuresKept > 0 then callAll('HSET', failuresKey, failuresKept) end
  if #failuresDropped > 0 then callAll('HDEL', failuresKey, failuresDropped) end
  if #toDead > 0 then callAll('ZADD', deadKey, toDead) end
  if #toStore > 0 then callAll('ZADD', storeKey, toStore) end
  if fairQueues then
    for _, queue in ipairs(fairQueues) do
      if toQueues[queue] then
        callAll('ZADD', queue, toQueues[queue])
        toQueues[queue] = nil
      end
    end
    fairSettled({ inflight = optional.tenant, tenants = optional.tenants, fair = optional.fair }, members, fairTenants, backToQueue)
  end
  if #heldDropped > 0 then callAll('HDEL', heldKey, heldDropped) end
  if #toExpiry > 0 then callAll('ZADD', expiryKey, toExpiry) end
  if traceKey and #tracesDropped > 0 then callAll('HDEL', traceKey, tracesDropped) end
  -- tracesDropped lists the dead members that no pending copy owns: their send times go as their trace entries do
  if sinceKey and #tracesDropped > 0 then callAll('HDEL', sinceKey, tracesDropped) end
  if #tracesKept > 0 then callAll('HSET', traceKey, tracesKept) end
end
if flow and #members > 0 then
  local freed, keys, parkedKeys = freePlaces(flow, members, now)
  if freed then wakeIn(0) end
  local forget = {}
  for i, member in ipairs(members) do forget[i] = deadAlone[member] == true end
  forgetKeys(flow, members, keys, parkedKeys, forget)
end
if requeued + merged + dead > 0 and handover and redis.call('ZCARD', prepareKey) == 0 then
  wakeIn(0)
end
if wakeDelay ~= nil then
  publishWake(wakeChannel, slot, wakeDelay)
end
if countersKey and requeued + merged + dead > 0 then
  redis.call('HINCRBY', countersKey, 'nacked', requeued + merged + dead)
  if dead > 0 then redis.call('HINCRBY', countersKey, 'dead', dead) end
end
return { requeued, merged, dead }
