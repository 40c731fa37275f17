-- The per-member release.lua that scripts/release.lua replaced, kept as the reference BatchScriptsEquivalenceIT
-- compares it with; KEYS, ARGV and replies as in the header of scripts/release.lua.
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local originKey   = KEYS[3]
local countersKey = KEYS[4]

-- A key of the wrong type (written by another client) must fail the call before a member leaves the
-- prepare queue (it is then rolled back at its deadline, once the key is repaired).
redis.call('ZCARD', storeKey)
redis.call('HEXISTS', originKey, '')
if countersKey then redis.call('HEXISTS', countersKey, '') end
local wakeChannel = ARGV[1]
local slot        = ARGV[2]
-- a wake channel in the slot's hash tag is sharded (Redis Cluster): SPUBLISH keeps the notice on the slot's node
local publishCommand = string.find(wakeChannel, '{', 1, true) and 'SPUBLISH' or 'PUBLISH'

local released = 0
for i = 3, #ARGV - 1, 2 do
  local member, score = ARGV[i], ARGV[i + 1]
  if redis.call('ZREM', prepareKey, member) == 1 then
    redis.call('HDEL', originKey, member)
    if not redis.call('ZSCORE', storeKey, member) then
      redis.call('ZADD', storeKey, score, member)
    end
    released = released + 1
  end
end
if released > 0 then redis.call(publishCommand, wakeChannel, slot .. ':0') end
if countersKey and released > 0 then redis.call('HINCRBY', countersKey, 'released', released) end
return released
