--[[
  commit: the commit phase. Removes consumed members from a slot's prepare queue and forgets their
  attempt counts and failures. A member that is no longer in the prepare queue (already rolled back) is skipped.
  When a committed member has a pending copy in the store queue (sent again while it was being
  consumed), a wake notice "<slot>:0" is published so an idle consumer picks that copy up. The same
  notice is published when the commit empties the prepare queue while a handover is pending (see
  pop.lua), so the slot's new owner starts popping at once.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[4]  origin hash     origin{<prefix><topic>_<slot>}
  KEYS[5]  owner hash      owner{<prefix><topic>_<slot>} (read only: its handover field)
  KEYS[6]  failures hash   failures{<prefix><topic>_<slot>}: member -> its last failure
  KEYS[7]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           field acked (members committed)

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
local wakeChannel = ARGV[1]
local slot        = ARGV[2]
-- a wake channel in the slot's hash tag is sharded (Redis Cluster): SPUBLISH keeps the notice on the slot's node
local publishCommand = string.find(wakeChannel, '{', 1, true) and 'SPUBLISH' or 'PUBLISH'

-- Multi-member commands take at most this many arguments after the key: Lua's unpack is bounded.
local CHUNK = 1000

-- Runs `command key items...` over a list of items; the replies one after the other.
local function callAll(command, key, items)
  local replies = {}
  for from = 1, #items, CHUNK do
    local part = redis.call(command, key, unpack(items, from, math.min(from + CHUNK - 1, #items)))
    if type(part) == 'table' then
      for i = 1, #part do replies[#replies + 1] = part[i] end
    end
  end
  return replies
end

local members, seen = {}, {}
for i = 3, #ARGV do
  if not seen[ARGV[i]] then
    seen[ARGV[i]] = true
    members[#members + 1] = ARGV[i]
  end
end

-- A key of the wrong type (written by another client) fails the call before anything is removed, so
-- that a failed commit means the members are still in the prepare queue (redelivered after their
-- deadline), as the caller reports. The reads below check the keys they read; the origin hash is the
-- first written.
local handover = redis.call('HEXISTS', ownerKey, 'handover') == 1
local inPrepare, pending, attempts = {}, {}, {}
if #members > 0 then
  inPrepare = callAll('ZMSCORE', prepareKey, members)
  pending = callAll('ZMSCORE', storeKey, members)
  attempts = callAll('HMGET', attemptsKey, members)
else
  redis.call('ZCARD', storeKey)
  redis.call('HEXISTS', attemptsKey, '')
end
redis.call('HEXISTS', failuresKey, '')
if countersKey then redis.call('HEXISTS', countersKey, '') end

local committed, failed = {}, {}
local wake = false
for i, member in ipairs(members) do
  if inPrepare[i] then
    committed[#committed + 1] = member
    -- only a message that failed before has a failure recorded: no command for the others
    if attempts[i] then failed[#failed + 1] = member end
    -- a copy sent again while this one was consumed waits in the store queue
    if pending[i] then wake = true end
  end
end
if #committed > 0 then
  callAll('HDEL', originKey, committed)
  callAll('ZREM', prepareKey, committed)
  if #failed > 0 then
    callAll('HDEL', attemptsKey, failed)
    callAll('HDEL', failuresKey, failed)
  end
else
  redis.call('HEXISTS', originKey, '')
end
if #committed > 0 and not wake and handover and redis.call('ZCARD', prepareKey) == 0 then
  wake = true
end
if wake then redis.call(publishCommand, wakeChannel, slot .. ':0') end
if countersKey and #committed > 0 then redis.call('HINCRBY', countersKey, 'acked', #committed) end
return #committed
