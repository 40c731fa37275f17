--[[
  send: stores messages in a slot's store queue, or merges each into a pending duplicate, in the
  order given (a later duplicate in the same call merges into the earlier one).

  A pending duplicate is the same member in the same store queue. Merge rules by topic type:
    RANGE_MERGE  score = now + range; a pending duplicate keeps its score (the first due time stands)
    PRIORITY     score = the priority; a pending duplicate takes the new score (the last priority stands)
    FIXED_TIME   score = the delivery time; a pending duplicate takes the new score (the last time stands)
  A copy that is being consumed (in the prepare queue) is not a pending duplicate.

  When the write may end an idle consumer's sleep (the slot was empty, the new member is due before
  the head that the consumer sleeps for, or the head is blocked behind an in-flight copy of itself;
  for a merged FIXED_TIME duplicate moved earlier: its new time is due, or is before the earliest
  member not yet due), a wake notice "<slot>:<delay ms>" is published on the topic's wake channel:
  one per call, with the smallest delay of its writes.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           fields sent (every message of the call) and merged (of those, merged)
  KEYS[4]  split marker    split:<2 * amount>{<prefix><topic>_<slot>} (optional), where amount is the slot
                           amount the caller routed by: it exists once the slot was split by a growth of the
                           topic (see split_slot.lua), and the call is then refused

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  value           RANGE_MERGE: time range in ms (> 0); PRIORITY: the priority;
                           FIXED_TIME: delivery time in ms since the epoch (Redis clock)
  ARGV[3]  member          the message content
  ARGV[4]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[5]  slot            the slot number, echoed in the wake notice
  ARGV[6..] pairs          further messages: value, member, value, member, ...

  Returns  { status1, score1, status2, score2, ... }, one pair per message in the order given
           status  1 = stored as a new message, 0 = merged into a pending duplicate
           score   the member's score after its write, as a string
  Errors   "RMQ_BAD_TYPE <type>" (error code RMQ_BAD_TYPE) for an unknown topic type
           "RMQ_SPLIT <amount>" when KEYS[4] exists: nothing stored; route again by that amount
]]
if redis.replicate_commands then redis.replicate_commands() end

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local countersKey = KEYS[3]
local topicType   = ARGV[1]

-- growth: the slot was split, the caller routes by an amount that is no longer the topic's
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
  return redis.error_reply('RMQ_SPLIT ' .. redis.call('GET', KEYS[4]))
end

local wakeChannel = ARGV[4]
local slot        = ARGV[5]
-- a wake channel in the slot's hash tag is sharded (Redis Cluster): SPUBLISH keeps the notice on the slot's node
local publishCommand = string.find(wakeChannel, '{', 1, true) and 'SPUBLISH' or 'PUBLISH'

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local timed = topicType ~= 'PRIORITY'
if topicType ~= 'RANGE_MERGE' and topicType ~= 'FIXED_TIME' and topicType ~= 'PRIORITY' then
  return redis.error_reply('RMQ_BAD_TYPE ' .. tostring(topicType))
end

-- A key of the wrong type (written by another client) must fail the call before anything is
-- stored, or a message would be stored and reported as failed: the prepare queue is read only for
-- some messages, the counters hash written last.
redis.call('ZCARD', prepareKey)
if countersKey then redis.call('HEXISTS', countersKey, '') end

local wakeDelay = nil
local function wakeIn(delay)
  if wakeDelay == nil or delay < wakeDelay then wakeDelay = delay end
end

-- Stores or merges one message; returns its status (1 stored, 0 merged).
local function send(value, member)
  local score
  if topicType == 'RANGE_MERGE' then
    score = now + tonumber(value)
  else
    score = tonumber(value)
  end

  local existing = redis.call('ZSCORE', storeKey, member)
  if existing then
    if topicType ~= 'RANGE_MERGE' then
      -- A consumer with nothing due sleeps until the earliest member not yet due (found before the
      -- write, as this member may be that one): a duplicate moved before it must wake the consumer.
      local wake = false
      if timed and score < tonumber(existing) then
        local upcoming = redis.call('ZRANGEBYSCORE', storeKey, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
        wake = score <= now or (#upcoming > 0 and score < tonumber(upcoming[2]))
      end
      redis.call('ZADD', storeKey, score, member)
      if wake then wakeIn(math.max(0, score - now)) end
    end
    return 0
  end

  -- Decide before adding whether an idle consumer of this slot needs waking.
  local head
  if timed then
    head = redis.call('ZRANGE', storeKey, 0, 0, 'WITHSCORES')
  else
    head = redis.call('ZREVRANGE', storeKey, 0, 0, 'WITHSCORES')
  end
  local wake = false
  if #head == 0 then
    wake = true
  elseif redis.call('ZSCORE', prepareKey, head[1]) then
    wake = true
  elseif timed then
    local headScore = tonumber(head[2])
    wake = headScore > now and score < headScore
  end

  redis.call('ZADD', storeKey, score, member)
  if wake then
    local delay = 0
    if timed and score > now then delay = score - now end
    wakeIn(delay)
  end
  return 1
end

local result = {}
local stored = 0
local function sendAndReport(value, member)
  local status = send(value, member)
  stored = stored + status
  result[#result + 1] = status
  result[#result + 1] = redis.call('ZSCORE', storeKey, member)
end
sendAndReport(ARGV[2], ARGV[3])
for i = 6, #ARGV, 2 do
  sendAndReport(ARGV[i], ARGV[i + 1])
end
if wakeDelay ~= nil then
  redis.call(publishCommand, wakeChannel, slot .. ':' .. string.format('%d', wakeDelay))
end
if countersKey then
  local sent = #result / 2
  redis.call('HINCRBY', countersKey, 'sent', sent)
  if sent > stored then redis.call('HINCRBY', countersKey, 'merged', sent - stored) end
end
return result
