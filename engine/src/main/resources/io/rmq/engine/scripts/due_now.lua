--[[
  due_now: makes one pending message due at once: RANGE_MERGE and FIXED_TIME take score now (a
  message due already keeps its score); PRIORITY takes the highest score of the slot plus 1, so it is
  popped next. Publishes a wake notice "<slot>:0".

  KEYS[1]  store queue     <prefix><topic>_<slot>

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  member          the message content
  ARGV[3]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[4]  slot            the slot number, echoed in the wake notice

  Returns  1 when the message is pending (and now due), 0 when it is not pending
]]
local storeKey    = KEYS[1]
local topicType   = ARGV[1]
local member      = ARGV[2]
local wakeChannel = ARGV[3]
local slot        = ARGV[4]
-- #include lib/clock.lua: redisNow()
-- #include lib/wake.lua: publishWake(channel, slot, delay)

local score = redis.call('ZSCORE', storeKey, member)
if not score then
  return 0
end
if topicType == 'PRIORITY' then
  local highest = redis.call('ZREVRANGE', storeKey, 0, 0, 'WITHSCORES')
  if highest[1] ~= member then
    redis.call('ZADD', storeKey, tonumber(highest[2]) + 1, member)
  end
else
  local now = redisNow()
  if tonumber(score) > now then
    redis.call('ZADD', storeKey, now, member)
  end
end
publishWake(wakeChannel, slot, 0)
return 1
