--[[
  commit: the commit phase. Removes consumed members from a slot's prepare queue and forgets their
  attempt counts, failures and held expiries. A member that is no longer in the prepare queue (already rolled back) is skipped.
  When a pop left a copy of a committed member in the store queue (sent again while it was being consumed; the
  pop recorded it in the blocked hash, lib/blocked.lua), a wake notice "<slot>:0" is published so an idle consumer
  picks that copy up; the entry goes. The same notice is published when the commit empties the prepare queue while
  a handover is pending (see pop.lua), so the slot's new owner starts popping at once.
  Trace contexts: when the trace hash holds entries (one HLEN otherwise), the committed members' entries are removed,
  but not that of a member with a pending copy (sent again meanwhile: the entry is that copy's).

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[4]  origin hash     origin{<prefix><topic>_<slot>}
  KEYS[5]  owner hash      owner{<prefix><topic>_<slot>} (read only: its handover field)
  KEYS[6]  failures hash   failures{<prefix><topic>_<slot>}: member -> its last failure
  KEYS[7]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           field acked (members committed)
  KEYS[8]  trace hash      trace{<prefix><topic>_<slot>}: member -> trace entry
  KEYS[9..] optional keys, each recognised by its name before the hash tag (lib/optional_keys.lua), in any order:
           held-expiry{<prefix><topic>_<slot>}: given when a committed member was popped with an expiry; its entry
           is removed
           since{<prefix><topic>_<slot>} (priority aging: lib/aging.lua): the committed members' first send times
           are removed, but not that of a member with a pending copy (its entry is that copy's); without it the
           hash is not touched
           tenant{<prefix><topic>_<slot>} (in-flight tenants; fair share, lib/fair.lua): the committed members'
           entries go, and a pending copy is looked for in each member's tenant queue (its commit wakes the
           consumer it was blocked for)
           flowkey{<prefix><topic>_<slot>} (member -> key), with keyflow{<prefix><topic>_<slot>} (key counts) and
           parkedkeys{<prefix><topic>_<slot>} (the consumer limits keys, see pop_flow.lua): the members leaving the
           prepare queue free their keys' places, and the committed members' entries go (not that of a member with
           a pending or parked copy); a key parked until a place frees is marked ready, and a wake notice
           "<slot>:0" is published

  ARGV[1]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[2]  slot            the slot number, echoed in the wake notice
  ARGV[3..] members        the members to commit

  Returns  the number of members removed from the prepare queue
]]
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local attemptsKey = KEYS[3]
local originKey   = KEYS[4]
local ownerKey    = KEYS[5]
local failuresKey = KEYS[6]
local countersKey = KEYS[7]
local traceKey    = KEYS[8]
local wakeChannel = ARGV[1]
local slot        = ARGV[2]
-- #include lib/wake.lua: publishWake(channel, slot, delay)

-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/clock.lua: redisNow()
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
-- #include lib/fair.lua: fair share between tenants
-- #include lib/optional_keys.lua: optionalKeys(first)
-- #include lib/blocked.lua: blockedKeyOf, noteBlocked, takeBlocked
local optional    = optionalKeys(9)
local heldKey     = optional['held-expiry']
local sinceKey    = optional.since
local tenantKey   = optional.tenant
local flow        = optional.flowkey and { keys = optional.flowkey, counts = optional.keyflow,
  parked = optional.parkedkeys } or nil

-- The members as given. One given twice (two deliveries of it settled in one batch) is removed once by
-- ZREM, whose count the common case below returns; the other case skips its repeats.
local members = {}
for i = 3, #ARGV do members[i - 2] = ARGV[i] end

-- A key of the wrong type (written by another client) fails the call before anything is removed, so
-- that a failed commit means the members are still in the prepare queue (redelivered after their
-- deadline), as the caller reports. The reads below check the keys they read; in the common case
-- below the prepare queue is the first written, by the command that checks it.
local handover = redis.call('HEXISTS', ownerKey, 'handover') == 1
-- The common case asks for no per-member reads of the prepare queue or the attempts hash: no member
-- of the slot has failed before (the attempts hash is empty) and none has a copy waiting in the store
-- queue. Then committing is removing the members from the prepare queue (and their PRIORITY origins),
-- and ZREM's count is the number committed. HLEN checks the hashes' types as well.
local retried = redis.call('HLEN', attemptsKey) > 0
local hasOrigins = redis.call('HLEN', originKey) > 0
redis.call('HEXISTS', failuresKey, '')
if countersKey then redis.call('HEXISTS', countersKey, '') end
local traced = traceKey ~= nil and redis.call('HLEN', traceKey) > 0

-- A committed member's copy pending in the store queue (sent again while it was in flight) keeps its own trace
-- entry, first send time and key; only those features read the store queue for every member. Without them a pending
-- copy matters only when a pop left it behind, and that pop recorded it in the blocked hash (lib/blocked.lua).
local pending = {}
-- fair share: each member's tenant (nil without the in-flight tenants hash)
local fairTenants = nil
if #members > 0 and tenantKey then
  local fairQueues
  fairTenants, fairQueues = fairQueuesOf(tenantKey, storeKey, members)
  pending = fairScores(fairQueues, members)
elseif #members > 0 and (traced or sinceKey or flow) then
  pending = callAll('ZMSCORE', storeKey, members)
else
  redis.call('ZCARD', storeKey)
end
local anyPending = false
for i = 1, #members do
  if pending[i] then anyPending = true break end
end

-- limits per key: the members leaving the prepare queue, read before they leave
local leaving = flow and stillPrepared(prepareKey, members) or nil

local committedCount = 0
local wake = false
if not retried and not anyPending and not fairTenants then
  if #members > 0 then
    -- ZREM first: it checks the prepare queue's type before anything is written
    committedCount = callAll('ZREM', prepareKey, members)
    -- a member not in the prepare queue has no origin either (written by pop, removed by commit,
    -- rollback and release), so removing every member's origin removes just the committed ones'
    if hasOrigins then callAll('HDEL', originKey, members) end
    if heldKey then callAll('HDEL', heldKey, members) end
    if traced then callAll('HDEL', traceKey, members) end
    if sinceKey then callAll('HDEL', sinceKey, members) end
  end
else
  local inPrepare = callAll('ZMSCORE', prepareKey, members)
  local attempts = {}
  if retried then attempts = callAll('HMGET', attemptsKey, members) end
  local committed, failed, untraced, unaged, seen = {}, {}, {}, {}, {}
  for i, member in ipairs(members) do
    if inPrepare[i] and not seen[member] then
      seen[member] = true
      committed[#committed + 1] = member
      if attempts[i] then failed[#failed + 1] = member end
      if pending[i] then wake = true elseif traced then untraced[#untraced + 1] = member end
      if sinceKey and not pending[i] then unaged[#unaged + 1] = member end
    end
  end
  if #untraced > 0 then callAll('HDEL', traceKey, untraced) end
  if #unaged > 0 then callAll('HDEL', sinceKey, unaged) end
  if #committed > 0 then
    if hasOrigins then callAll('HDEL', originKey, committed) end
    if heldKey then callAll('HDEL', heldKey, committed) end
    callAll('ZREM', prepareKey, committed)
    if #failed > 0 then
      callAll('HDEL', attemptsKey, failed)
      callAll('HDEL', failuresKey, failed)
    end
  end
  committedCount = #committed
  if fairTenants then
    local named = {}
    for i, member in ipairs(members) do
      if fairTenants[i] ~= '' and seen[member] then named[#named + 1] = member end
    end
    callAll('HDEL', tenantKey, named)
  end
end
-- the consumers a pop told to wait for one of these members' commit (after the writes above checked their keys)
if takeBlocked(blockedKeyOf(storeKey), members) then wake = true end
if flow and #leaving > 0 then
  local pendingOf, forget = {}, {}
  for i, member in ipairs(members) do
    if pending[i] then pendingOf[member] = true end
  end
  for i, member in ipairs(leaving) do forget[i] = not pendingOf[member] end
  local freed, keys, parkedKeys = freePlaces(flow, leaving, redisNow())
  if freed then wake = true end
  forgetKeys(flow, leaving, keys, parkedKeys, forget)
end
if committedCount > 0 and not wake and handover and redis.call('ZCARD', prepareKey) == 0 then
  wake = true
end
if wake then publishWake(wakeChannel, slot, 0) end
if countersKey and committedCount > 0 then redis.call('HINCRBY', countersKey, 'acked', committedCount) end
return committedCount
