-- The per-member commit.lua that scripts/commit.lua replaced, kept as the reference BatchScriptsEquivalenceIT
-- compares it with; KEYS, ARGV and replies as in the header of scripts/commit.lua.
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

-- A key of the wrong type (written by another client) fails the call before anything is removed, so
-- that a failed commit means the members are still in the prepare queue (redelivered after their
-- deadline), as the caller reports.
local handover = redis.call('HEXISTS', ownerKey, 'handover') == 1
redis.call('ZCARD', storeKey)
redis.call('HEXISTS', attemptsKey, '')
redis.call('HEXISTS', originKey, '')
redis.call('HEXISTS', failuresKey, '')
if countersKey then redis.call('HEXISTS', countersKey, '') end

local committed = 0
local wake = false
for i = 3, #ARGV do
  local member = ARGV[i]
  if redis.call('ZREM', prepareKey, member) == 1 then
    committed = committed + 1
    -- only a message that failed before has a failure recorded: no extra command for the others
    if redis.call('HDEL', attemptsKey, member) == 1 then redis.call('HDEL', failuresKey, member) end
    redis.call('HDEL', originKey, member)
    if not wake and redis.call('ZSCORE', storeKey, member) then wake = true end
  end
end
if committed > 0 and not wake and handover and redis.call('ZCARD', prepareKey) == 0 then
  wake = true
end
if wake then redis.call(publishCommand, wakeChannel, slot .. ':0') end
if countersKey and committed > 0 then redis.call('HINCRBY', countersKey, 'acked', committed) end
return committed
