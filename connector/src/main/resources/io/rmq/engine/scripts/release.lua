--[[
  release: returns members a consumer popped but never handed to the application (prefetched, then
  the consumer stopped) to the store queue with the score they were popped with, without counting
  a delivery attempt, so a clean shutdown loses nothing and costs no retry.

  A member no longer in the prepare queue is skipped. When a pending copy exists in the store queue
  (the content was sent again meanwhile), the pending copy stands and the released one merges into it.
  Also used by a consumer that lost a slot to another owner (coordination): the wake notice it
  publishes tells the new owner, whose handover may be waiting for these members, to pop again.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  origin hash     origin{<prefix><topic>_<slot>}
  KEYS[4]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           field released (members returned undelivered)

  ARGV[1]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[2]  slot            the slot number, echoed in the wake notice "<slot>:0"
  ARGV[3..] pairs          member, score (the store score it was popped with), member, score, ...

  Returns  the number of members returned to the store queue or merged
]]
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
