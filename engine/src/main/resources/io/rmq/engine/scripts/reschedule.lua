--[[
  reschedule: sets the score of one pending message explicitly, whatever the topic's merge rule: its due time
  (RANGE_MERGE, FIXED_TIME) or its priority (PRIORITY). Only a pending copy changes (ZADD XX); a copy being
  consumed is reported, not changed.

  A timed message moved earlier may end an idle consumer's sleep, as a merged FIXED_TIME duplicate does in
  send.lua: when its new time is due, or is before the earliest member not yet due (read before the write, as
  this member may be that one), a wake notice "<slot>:<delay ms>" is published. A message moved later, and a
  new priority, wake nobody: a consumer then wakes at the time it slept for and finds what is due.

  A copy held back by limits per key (parked, see pop_flow.lua) is pending too: its score in the parked set changes,
  and it goes with that score once its key has room (no wake notice: its key's place or permit wakes it). One
  EXISTS of the parked keys when the member is not in the store queue and no key is parked.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  counters hash   counters{<prefix><topic>_<slot>}: field rescheduled (1 when this call changed the message)
  KEYS[4]  flow keys       flowkey{<prefix><topic>_<slot>}: member -> its key
  KEYS[5]  parked keys     parkedkeys{<prefix><topic>_<slot>}
  KEYS[6..] split markers  as in cancel.lua (optional); with the AGING section KEYS[6] is the since hash
                           since{<prefix><topic>_<slot>} and the markers follow from KEYS[7]

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  score           the due time in ms since the epoch (Redis clock), or the priority
  ARGV[3]  member          the message content
  ARGV[4]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[5]  slot            the slot number, echoed in the wake notice
  ARGV[6..8] (optional)    'AGING', the pace (points per ms) and the topic's aging epoch (PRIORITY, lib/aging.lua):
                           the new priority p is written as the aged score p - pace * (e - epoch), e the pending
                           copy's first send time (the epoch when none is recorded)

  Returns  { rescheduled, inFlight, splits }
           rescheduled  1 when the message was pending and now has the score given, 0 when it was not pending
           inFlight     1 when a copy is in the prepare queue (being consumed; not changed)
           splits       as in cancel.lua
  Errors   "RMQ_BAD_VALUE <score>" for a score that is not a number; nothing is changed
]]
if redis.replicate_commands then redis.replicate_commands() end
-- #include lib/errors.lua: ERRORS (the error codes) and fail(code, detail)

local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local countersKey = KEYS[3]
local topicType   = ARGV[1]
local score       = tonumber(ARGV[2])
local member      = ARGV[3]
local wakeChannel = ARGV[4]
local slot        = ARGV[5]
local sinceKey, markersFrom, pace, agingEpoch = nil, 6, nil, nil
if ARGV[6] == 'AGING' and topicType == 'PRIORITY' then
  sinceKey, markersFrom, pace, agingEpoch = KEYS[6], 7, tonumber(ARGV[7]), tonumber(ARGV[8])
end
-- #include lib/clock.lua: redisNow()
-- #include lib/wake.lua: publishWake(channel, slot, delay)
-- #include lib/split_depth.lua: splitDepth(first)
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)

if score == nil or score ~= score then return fail(ERRORS.BAD_VALUE, ARGV[2]) end

local inFlight = redis.call('ZSCORE', prepareKey, member) and 1 or 0
local existing = redis.call('ZSCORE', storeKey, member)
local rescheduled = 0
if existing then
  redis.call('HEXISTS', countersKey, '')
  local wakeDelay = nil
  if topicType ~= 'PRIORITY' and score < tonumber(existing) then
    local now = redisNow()
    local wake = score <= now
    if not wake then
      local upcoming = redis.call('ZRANGEBYSCORE', storeKey, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
      wake = upcoming[2] ~= nil and score < tonumber(upcoming[2])
    end
    if wake then wakeDelay = math.max(0, score - now) end
  end
  if sinceKey then
    local sentAt = tonumber(redis.call('HGET', sinceKey, member) or '') or agingEpoch
    score = score - pace * (sentAt - agingEpoch)
  end
  redis.call('ZADD', storeKey, 'XX', score, member)
  if wakeDelay ~= nil then publishWake(wakeChannel, slot, wakeDelay) end
  redis.call('HINCRBY', countersKey, 'rescheduled', 1)
  rescheduled = 1
else
  local parked = parkedCopies({ keys = KEYS[4], parked = KEYS[5] }, { member })[member]
  if parked then
    redis.call('HEXISTS', countersKey, '')
    redis.call('ZADD', parked.set, 'XX', score, member)
    redis.call('HINCRBY', countersKey, 'rescheduled', 1)
    rescheduled = 1
  end
end
return { rescheduled, inFlight, splitDepth(markersFrom) }
