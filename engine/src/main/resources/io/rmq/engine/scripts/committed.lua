--[[
  committed: the rest of a plain commit. A consumer commits a batch of the common case (first deliveries of a
  RANGE_MERGE or FIXED_TIME topic, with no expiry, limits per key, fair share or priority aging) with a plain
  `ZREM` of the members from the slot's prepare queue, whose count is the number committed; the members then pass
  through no script (the bare client's ack). This script, sent once that ZREM has answered, does what commit.lua
  does beside the removal, with no member given:
  - counts the removed members (field acked);
  - publishes a wake notice "<slot>:0" when a pop left a copy of a member behind and that member's copy in flight
    has since left the prepare queue (the blocked hash, lib/blocked.lua: its entries are resolved here while it holds
    at most 128; more, and the caller is asked for the members), or when a handover is pending and the prepare queue
    is empty (see pop.lua);
  - says what it could not do without the members: the caller then sends them to commit_forget.lua.
  The removal has happened when this runs: a consumer that dies in between leaves one batch uncounted, and its wake
  notice unsent (a sleeping consumer then finds the copy at its safety poll, as when a notice is lost).

  KEYS[1]  store queue     <prefix><topic>_<slot> (names the blocked hash)
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>} (HLEN)
  KEYS[4]  owner hash      owner{<prefix><topic>_<slot>} (read only: its handover field)
  KEYS[5]  counters hash   counters{<prefix><topic>_<slot>}: field acked
  KEYS[6]  trace hash      trace{<prefix><topic>_<slot>} (HLEN; optional: given when the consumer does not take trace
                           entries at pop)

  ARGV[1]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster rmq:wake{<prefix><topic>_<slot>}
  ARGV[2]  slot            the slot number, echoed in the wake notice
  ARGV[3]  removed         what the ZREM removed

  Returns  what commit_forget.lua is to do with the members (0: nothing, the common case), the sum of
           1  the blocked hash holds more than 128 entries: forget the members' entries
           2  some member of the slot has failed (the attempts hash is not empty; a member of the batch may have been
              rolled back and popped again since its pop): forget the attempts and failures of members now in
              neither queue
           4  the trace hash holds entries (KEYS[6] given): forget those of members now in neither queue
]]
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local attemptsKey = KEYS[3]
local ownerKey    = KEYS[4]
local countersKey = KEYS[5]
local traceKey    = KEYS[6]
local wakeChannel = ARGV[1]
local slot        = ARGV[2]
local removed     = tonumber(ARGV[3])
-- #include lib/wake.lua: publishWake(channel, slot, delay)
-- #include lib/blocked.lua: blockedKeyOf, noteBlocked, takeBlocked

local RESOLVED_HERE = 128
local ask = 0
local wake = false
if removed > 0 then redis.call('HINCRBY', countersKey, 'acked', removed) end

local blockedKey = blockedKeyOf(storeKey)
local blocked = redis.call('HLEN', blockedKey)
if blocked > RESOLVED_HERE then
  ask = ask + 1
elseif blocked > 0 then
  -- an entry whose copy in flight has left the prepare queue (this commit, or another settlement) wakes the consumers
  -- HGETALL, not HKEYS: the minimal ACL (RedisAcl) grants it already
  local entries = redis.call('HGETALL', blockedKey)
  local members = {}
  for i = 1, #entries, 2 do members[#members + 1] = entries[i] end
  local inFlight = redis.call('ZMSCORE', prepareKey, unpack(members))
  local gone = {}
  for i, member in ipairs(members) do
    if not inFlight[i] then gone[#gone + 1] = member end
  end
  if #gone > 0 then
    redis.call('HDEL', blockedKey, unpack(gone))
    wake = true
  end
end
if removed > 0 and not wake and redis.call('HEXISTS', ownerKey, 'handover') == 1
    and redis.call('ZCARD', prepareKey) == 0 then
  wake = true
end
if redis.call('HLEN', attemptsKey) > 0 then ask = ask + 2 end
if traceKey and redis.call('HLEN', traceKey) > 0 then ask = ask + 4 end
if wake then publishWake(wakeChannel, slot, 0) end
return ask
