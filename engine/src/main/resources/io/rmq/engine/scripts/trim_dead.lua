--[[
  trim_dead: keeps a slot's dead queue within its retention: deletes members that died more than
  `maxAge` ms ago, then the oldest ones beyond `maxCount`, with what is recorded about them.

  KEYS[1]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[2]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[3]  failures hash   failures{<prefix><topic>_<slot>}
  KEYS[4]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           field trimmed (members deleted)

  ARGV[1]  max count       most members to keep (>= 0)
  ARGV[2]  max age         ms; members that died before now - max age are deleted (> 0)
  ARGV[3]  limit           most members to delete in this call (> 0); the rest on the next call

  Returns  { byAge, byCount }: members deleted for their age, and for the count
]]
local deadKey     = KEYS[1]
local attemptsKey = KEYS[2]
local failuresKey = KEYS[3]
local countersKey = KEYS[4]
local maxCount    = tonumber(ARGV[1])
local maxAge      = tonumber(ARGV[2])
local limit       = tonumber(ARGV[3])

-- #include lib/clock.lua: redisNow()
local now = redisNow()

local function delete(members)
  for _, member in ipairs(members) do
    redis.call('ZREM', deadKey, member)
    redis.call('HDEL', attemptsKey, member)
    redis.call('HDEL', failuresKey, member)
  end
  return #members
end

local byAge = delete(redis.call('ZRANGEBYSCORE', deadKey, '-inf', '(' .. (now - maxAge), 'LIMIT', 0, limit))
local byCount = 0
local excess = redis.call('ZCARD', deadKey) - maxCount
if excess > 0 and byAge < limit then
  byCount = delete(redis.call('ZRANGE', deadKey, 0, math.min(excess, limit - byAge) - 1))
end
if countersKey and byAge + byCount > 0 then redis.call('HINCRBY', countersKey, 'trimmed', byAge + byCount) end
return { byAge, byCount }
