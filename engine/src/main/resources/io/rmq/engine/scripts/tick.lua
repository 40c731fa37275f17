--[[
  tick: sends the message of one tick of a recurring schedule, once in the whole cluster however many
  application instances ask for the same tick, or records a missed tick as its policy says.

  The schedule's state is a hash under the hash tag of the slot its fixed payload routes to:
    last    the latest tick recorded (ms since the epoch): a tick at or before it is never sent again
    paused  "1" while an operator paused the schedule: nothing is recorded or sent
  The state exists from the schedule's definition on (last = the Redis time of the definition); a call for
  a schedule whose state is gone (removed) changes nothing.

  The message is written with the topic's merge rules, as send.lua writes one message: a tick whose
  previous message is still pending merges into it (RANGE_MERGE keeps the first due time, PRIORITY takes the
  priority, FIXED_TIME takes the new tick time); a copy being consumed is not a pending duplicate. One wake
  notice per written message, with its delay.

  KEYS[1]  schedule state  schedule:<name>{<prefix><topic>_<slot>} (hash: last, paused)
  KEYS[2]  store queue     <prefix><topic>_<slot>
  KEYS[3]  counters hash   counters{<prefix><topic>_<slot>} (optional): fields ticked (a tick's message
                           written, stored or merged) and merged (of those, merged)
  KEYS[4]  split marker    split:<2 * amount>{<prefix><topic>_<slot>} (optional): exists once the slot was
                           split by a growth of the topic; the call is then refused

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[3]  slot            the slot number, echoed in the wake notice
  ARGV[4]  tick            the tick's time in ms since the epoch; not after the Redis clock
  ARGV[5]  previous tick   the schedule's tick before ARGV[4], in ms (0: none)
  ARGV[6]  mode            due      the tick is on time: sent when after the last recorded one
                           start    the caller starts (or comes back after Redis or itself was unreachable):
                                    when the previous tick is after the last recorded one, ticks were missed
                                    while nothing ran and this tick is the latest of them: ARGV[7] decides
  ARGV[7]  missed policy   SKIP (record the tick, send nothing) | CATCH_UP (send this one tick)
  ARGV[8]  value           RANGE_MERGE: time range in ms (> 0); PRIORITY: the priority;
                           FIXED_TIME: ignored, the score is the tick time
  ARGV[9]  member          the message content

  Returns  { status, detail }
           status  1 SENT (detail: 1 stored, 0 merged), 2 SKIPPED (missed, policy SKIP; detail: the tick),
                   3 ALREADY (the tick is at or before the last recorded one; detail: that last tick),
                   4 PAUSED (detail: the last tick), 5 REMOVED (no state; detail 0),
                   6 EARLY (the tick is after the Redis clock; detail: ms until it is due),
                   7 CAUGHT_UP (missed, policy CATCH_UP: this tick's message was written; detail as SENT)
  Errors   (codes in lib/errors.lua)
           "RMQ_BAD_TYPE <type>" for an unknown topic type; "RMQ_BAD_VALUE <value>" for a value or tick that
           is not a number; "RMQ_SPLIT <split marker>" when KEYS[4] exists; nothing is written
]]
if redis.replicate_commands then redis.replicate_commands() end
-- #include lib/errors.lua: ERRORS (the error codes) and fail(code, detail)
-- #include lib/clock.lua: redisNow()
-- #include lib/wake.lua: publishWake(channel, slot, delay)

local stateKey    = KEYS[1]
local storeKey    = KEYS[2]
local countersKey = KEYS[3]
local topicType   = ARGV[1]
local wakeChannel = ARGV[2]
local slot        = ARGV[3]
local tick        = tonumber(ARGV[4])
local previous    = tonumber(ARGV[5])
local mode        = ARGV[6]
local policy      = ARGV[7]
local member      = ARGV[9]

if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
  return fail(ERRORS.SPLIT, KEYS[4])
end
if topicType ~= 'RANGE_MERGE' and topicType ~= 'FIXED_TIME' and topicType ~= 'PRIORITY' then
  return fail(ERRORS.BAD_TYPE, topicType)
end
if tick == nil then return fail(ERRORS.BAD_VALUE, ARGV[4]) end
if previous == nil then return fail(ERRORS.BAD_VALUE, ARGV[5]) end
local value = tonumber(ARGV[8])
if value == nil and topicType ~= 'FIXED_TIME' then return fail(ERRORS.BAD_VALUE, ARGV[8]) end

local state = redis.call('HMGET', stateKey, 'last', 'paused')
local last = tonumber(state[1])
if last == nil then return { 5, 0 } end
if state[2] == '1' then return { 4, string.format('%d', last) } end
if tick <= last then return { 3, string.format('%d', last) } end

local now = redisNow()
if tick > now then return { 6, string.format('%d', tick - now) } end

redis.call('HSET', stateKey, 'last', string.format('%d', tick))
local missed = mode == 'start' and previous > last
if missed and policy ~= 'CATCH_UP' then
  return { 2, string.format('%d', tick) }
end

local score
if topicType == 'FIXED_TIME' then score = tick
elseif topicType == 'RANGE_MERGE' then score = now + value
else score = value end

local existing = redis.call('ZSCORE', storeKey, member)
local stored = existing and 0 or 1
if not (existing and topicType == 'RANGE_MERGE') then
  redis.call('ZADD', storeKey, score, member)
end
local due = topicType == 'PRIORITY' and now or tonumber(redis.call('ZSCORE', storeKey, member))
publishWake(wakeChannel, slot, math.max(0, due - now))
if countersKey then
  redis.call('HINCRBY', countersKey, 'ticked', 1)
  if stored == 0 then redis.call('HINCRBY', countersKey, 'merged', 1) end
end
return { missed and 7 or 1, stored }
