--[[
  release: returns members a consumer popped but never handed to the application (prefetched, then
  the consumer stopped) to the store queue with the score they were popped with, without counting
  a delivery attempt, so a clean shutdown loses nothing and costs no retry.

  A member no longer in the prepare queue is skipped. When a pending copy exists in the store queue
  (the content was sent again meanwhile), the pending copy stands and the released one merges into it.
  Expiry (KEYS[5], KEYS[6] given): a member popped with an expiry gets it back in the expiry set when it
  returns to the store queue; merged into a pending copy (which keeps its own), its held expiry is dropped.
  Trace contexts (KEYS[7] given, ARGV[3] = 'TRACE'): the consumer gives back each member's trace entry that pop.lua
  took out (lib/trace.lua); a released member gets it back, one merged into a pending copy adds it to the copy's.
  Also used by a consumer that lost a slot to another owner (coordination): the wake notice it
  publishes tells the new owner, whose handover may be waiting for these members, to pop again.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  origin hash     origin{<prefix><topic>_<slot>}
  KEYS[4]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           field released (members returned undelivered)
  KEYS[5]  expiry set      expiry{<prefix><topic>_<slot>} (optional, with KEYS[6]: given when a member was
                           popped with an expiry)
  KEYS[6]  held expiry     held-expiry{<prefix><topic>_<slot>}
  KEYS[7]  trace hash      trace{<prefix><topic>_<slot>} (optional, with KEYS[5], KEYS[6] and 'TRACE')
  KEYS[8..] optional keys, each recognised by its name before the hash tag (lib/optional_keys.lua), in any order
           (given with KEYS[5..7]):
           tenant{<prefix><topic>_<slot>} (member in flight -> its tenant), with tenants{<prefix><topic>_<slot>} and
           fair{<prefix><topic>_<slot>} (fair share, lib/fair.lua): a member popped from a tenant's queue goes back
           to that queue (merging with a pending copy there), the tenant takes part again, and the entry goes
           flowkey{<prefix><topic>_<slot>} (member -> key), with keyflow{<prefix><topic>_<slot>} (key counts) and
           parkedkeys{<prefix><topic>_<slot>} (the consumer limits keys, see pop_flow.lua): the members leaving the
           prepare queue free their keys' places; a key parked until a place frees is marked ready, and a wake
           notice "<slot>:0" is published

  ARGV[1]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[2]  slot            the slot number, echoed in the wake notice "<slot>:0"
  ARGV[3..] pairs          member, score (the store score it was popped with), member, score, ...
           or, with trace entries: 'TRACE', the most contexts an entry keeps, then triples member, score,
           trace entry ('' for none)

  Returns  the number of members returned to the store queue or merged
]]
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local originKey   = KEYS[3]
local countersKey = KEYS[4]
local expiryKey   = KEYS[5]
local heldKey     = KEYS[6]
local wakeChannel = ARGV[1]
local slot        = ARGV[2]
-- #include lib/wake.lua: publishWake(channel, slot, delay)

-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/trace.lua: mergeTrace(old, new, maxLinks)
-- #include lib/clock.lua: redisNow()
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
-- #include lib/fair.lua: fair share between tenants
-- #include lib/optional_keys.lua: optionalKeys(first)
local optional    = optionalKeys(8)
local flow        = optional.flowkey and { keys = optional.flowkey, counts = optional.keyflow,
  parked = optional.parkedkeys } or nil

-- the members given, once each (the first score given for a member stands)
local members, scores, seen, seenAt, givenTrace = {}, {}, {}, {}, {}
local traceKey = ARGV[3] == 'TRACE' and KEYS[7] or nil
local first, step, maxLinks = 3, 2, 0
if traceKey then first, step, maxLinks = 5, 3, tonumber(ARGV[4]) or 0 end
for i = first, #ARGV - step + 1, step do
  if not seen[ARGV[i]] then
    seen[ARGV[i]] = true
    members[#members + 1] = ARGV[i]
    seenAt[ARGV[i]] = #members
    scores[#scores + 1] = ARGV[i + 1]
    if traceKey and ARGV[i + 2] ~= '' then givenTrace[ARGV[i]] = ARGV[i + 2] end
  end
end

-- A key of the wrong type (written by another client) must fail the call before a member leaves the
-- prepare queue (it is then rolled back at its deadline, once the key is repaired): the reads check
-- the keys they read, the origin hash is the first written.
local inPrepare, pending = {}, {}
-- fair share: each member's tenant and queue (nil without the in-flight tenants hash: the store queue)
local fairTenants, fairQueues = nil, nil
if #members > 0 then
  inPrepare = callAll('ZMSCORE', prepareKey, members)
  if optional.tenant then
    fairTenants, fairQueues = fairQueuesOf(optional.tenant, storeKey, members)
    pending = fairScores(fairQueues, members)
  else
    pending = callAll('ZMSCORE', storeKey, members)
  end
else
  redis.call('ZCARD', storeKey)
end
if countersKey then redis.call('HEXISTS', countersKey, '') end
if traceKey then redis.call('HLEN', traceKey) end

local released, toStore, toQueues, backToQueue = {}, {}, {}, {}
for i, member in ipairs(members) do
  if inPrepare[i] then
    released[#released + 1] = member
    if not pending[i] and fairQueues then
      local list = toQueues[fairQueues[i]] or {}
      toQueues[fairQueues[i]] = list
      list[#list + 1] = scores[i]
      list[#list + 1] = member
      backToQueue[member] = true
    elseif not pending[i] then
      toStore[#toStore + 1] = scores[i]
      toStore[#toStore + 1] = member
    end
  end
end
if #released > 0 then
  callAll('HDEL', originKey, released)
  if heldKey then
    local held = callAll('HMGET', heldKey, released)
    local toExpiry = {}
    for i, member in ipairs(released) do
      if held[i] and not pending[seenAt[member]] then
        toExpiry[#toExpiry + 1] = held[i]
        toExpiry[#toExpiry + 1] = member
      end
    end
    callAll('HDEL', heldKey, released)
    if #toExpiry > 0 then callAll('ZADD', expiryKey, toExpiry) end
  end
  if traceKey then
    local withTrace = {}
    for _, member in ipairs(released) do
      if givenTrace[member] then withTrace[#withTrace + 1] = member end
    end
    local current = callAll('HMGET', traceKey, withTrace)
    local entries = {}
    for i, member in ipairs(withTrace) do
      local entry = mergeTrace(pending[seenAt[member]] and current[i] or nil, givenTrace[member], maxLinks)
      if entry then
        entries[#entries + 1] = member
        entries[#entries + 1] = entry
      end
    end
    callAll('HSET', traceKey, entries)
  end
  callAll('ZREM', prepareKey, released)
  if #toStore > 0 then callAll('ZADD', storeKey, toStore) end
  for queue, list in pairs(toQueues) do callAll('ZADD', queue, list) end
else
  redis.call('HEXISTS', originKey, '')
end
if fairQueues then fairSettled({ inflight = optional.tenant, tenants = optional.tenants, fair = optional.fair }, members, fairTenants, backToQueue) end
-- limits per key: the released members free their places (the wake notice below tells of them too)
if flow then freePlaces(flow, released, redisNow()) end
if #released > 0 then publishWake(wakeChannel, slot, 0) end
if countersKey and #released > 0 then redis.call('HINCRBY', countersKey, 'released', #released) end
return #released
