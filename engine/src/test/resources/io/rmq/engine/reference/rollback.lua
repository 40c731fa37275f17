-- The per-member rollback.lua that scripts/rollback.lua replaced, kept as the reference BatchScriptsEquivalenceIT
-- compares it with; KEYS, ARGV and replies as in the header of scripts/rollback.lua.
if redis.replicate_commands then redis.replicate_commands() end

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local attemptsKey = KEYS[3]
local originKey   = KEYS[4]
local deadKey     = KEYS[5]
local ownerKey    = KEYS[6]
local failuresKey = KEYS[7]
local countersKey = KEYS[8]
local topicType   = ARGV[1]
local maxRetries  = tonumber(ARGV[2])
local backoffBase = tonumber(ARGV[3])
local backoffMax  = tonumber(ARGV[4])
local wakeChannel = ARGV[5]
local slot        = ARGV[6]
local selection   = ARGV[7]
local limit       = tonumber(ARGV[8])
local failure     = ARGV[9]
-- a wake channel in the slot's hash tag is sharded (Redis Cluster): SPUBLISH keeps the notice on the slot's node
local publishCommand = string.find(wakeChannel, '{', 1, true) and 'SPUBLISH' or 'PUBLISH'

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local members
if selection == 'expired' then
  members = redis.call('ZRANGEBYSCORE', prepareKey, '-inf', now, 'LIMIT', 0, limit)
else
  members = {}
  for i = 10, #ARGV do members[#members + 1] = ARGV[i] end
end

-- A key of the wrong type (written by another client) must fail the call before a member leaves the
-- prepare queue, or the member would be in no queue at all. Rollbacks are rare: check every key.
redis.call('ZCARD', storeKey)
redis.call('ZCARD', deadKey)
redis.call('HEXISTS', attemptsKey, '')
redis.call('HEXISTS', originKey, '')
redis.call('HEXISTS', ownerKey, '')
redis.call('HEXISTS', failuresKey, '')
if countersKey then redis.call('HEXISTS', countersKey, '') end

local requeued, merged, dead = 0, 0, 0
local wakeDelay = nil
local function wakeIn(delay)
  if wakeDelay == nil or delay < wakeDelay then wakeDelay = delay end
end

for _, member in ipairs(members) do
  if redis.call('ZREM', prepareKey, member) == 1 then
    -- not HINCRBY: a count that is not a number (written by hand) would fail the call for good and
    -- leave the member in the prepare queue; it counts as 0 and is replaced
    local failures = math.floor(tonumber(redis.call('HGET', attemptsKey, member) or '0') or 0) + 1
    redis.call('HSET', attemptsKey, member, failures)
    local priority = redis.call('HGET', originKey, member)
    redis.call('HDEL', originKey, member)
    -- the last failure, with what a requeue from the dead queue needs (the priority)
    redis.call('HSET', failuresKey, member, failures .. '\t' .. (priority or '') .. '\t' .. failure)
    -- pop skipped this pending copy while the delivery was in flight; it can be popped from now on
    local pending = redis.call('ZSCORE', storeKey, member)
    if pending then
      wakeIn(topicType == 'PRIORITY' and 0 or math.max(0, tonumber(pending) - now))
    end
    if failures > maxRetries then
      redis.call('ZADD', deadKey, now, member)
      redis.call('HDEL', attemptsKey, member)
      dead = dead + 1
    elseif pending then
      redis.call('HDEL', attemptsKey, member)
      redis.call('HDEL', failuresKey, member)
      merged = merged + 1
    else
      local score
      local delay = 0
      if topicType == 'PRIORITY' then
        -- a priority that is not a number (written by hand) counts as 0: the member must land somewhere
        score = tonumber(priority or '0') or 0
        local lowest = redis.call('ZRANGE', storeKey, 0, 0, 'WITHSCORES')
        if #lowest > 0 then score = math.min(score, tonumber(lowest[2]) - 1) end
      else
        delay = math.min(backoffBase * math.pow(2, failures - 1), backoffMax)
        score = now + delay
      end
      redis.call('ZADD', storeKey, score, member)
      requeued = requeued + 1
      wakeIn(delay)
    end
  end
end
if requeued + merged + dead > 0 and redis.call('HEXISTS', ownerKey, 'handover') == 1
    and redis.call('ZCARD', prepareKey) == 0 then
  wakeIn(0)
end
if wakeDelay ~= nil then
  redis.call(publishCommand, wakeChannel, slot .. ':' .. string.format('%d', wakeDelay))
end
if countersKey and requeued + merged + dead > 0 then
  redis.call('HINCRBY', countersKey, 'nacked', requeued + merged + dead)
  if dead > 0 then redis.call('HINCRBY', countersKey, 'dead', dead) end
end
return { requeued, merged, dead }
