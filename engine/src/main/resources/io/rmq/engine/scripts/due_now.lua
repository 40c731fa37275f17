--[[
  due_now: makes one pending message due at once: RANGE_MERGE and FIXED_TIME take score now (a
  message due already keeps its score); PRIORITY takes the highest score of the slot plus 1, so it is
  popped next. Publishes a wake notice "<slot>:0". A copy held back by limits per key (parked, see pop_flow.lua)
  takes the same score in its parked set, and goes with it once its key has room.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  flow keys       flowkey{<prefix><topic>_<slot>}: member -> its key (optional, with KEYS[3])
  KEYS[3]  parked keys     parkedkeys{<prefix><topic>_<slot>}

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
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)

-- where the message waits: the store queue, or its key's parked set
local queue = storeKey
local score = redis.call('ZSCORE', storeKey, member)
if not score and KEYS[2] then
  local parked = parkedCopies({ keys = KEYS[2], parked = KEYS[3] }, { member })[member]
  if parked then queue, score = parked.set, parked.score end
end
if not score then
  return 0
end
if topicType == 'PRIORITY' then
  local highest = redis.call('ZREVRANGE', storeKey, 0, 0, 'WITHSCORES')
  if highest[1] ~= member then
    redis.call('ZADD', queue, (tonumber(highest[2]) or tonumber(score)) + 1, member)
  end
else
  local now = redisNow()
  if tonumber(score) > now then
    redis.call('ZADD', queue, now, member)
  end
end
publishWake(wakeChannel, slot, 0)
return 1
