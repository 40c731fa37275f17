--[[
  cancel: removes one pending message from a slot's store queue, on behalf of an application (or an operator).
  A copy that is being consumed (in the prepare queue) is not touched: it is reported, not cancelled. Both may
  exist at once (a copy sent while another is consumed is queued again): the pending copy is removed, and the
  reply still says that a copy is in flight.

  The pending copy's expiry goes with it (an in-flight copy's expiry is held apart, in held-expiry{...}). What
  else is recorded about the member (its attempt count, its last failure) is forgotten with the pending copy
  when no other copy of it remains in the slot (in flight or dead): a remaining copy keeps them.

  Limits per key (KEYS[9], KEYS[10]): a copy held back by its key (parked, see pop_flow.lua) is pending too, and is
  removed like one; the member's key is forgotten unless a copy is in flight. Without parked keys this costs one
  EXISTS.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[4]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[5]  failures hash   failures{<prefix><topic>_<slot>}
  KEYS[6]  expiry zset     expiry{<prefix><topic>_<slot>}: pending member -> expiresAt (ms since the epoch)
  KEYS[7]  counters hash   counters{<prefix><topic>_<slot>}: field cancelled (1 when this call removed the message)
  KEYS[8]  trace hash      trace{<prefix><topic>_<slot>}: the cancelled message's trace entry is removed
  KEYS[9]  flow keys       flowkey{<prefix><topic>_<slot>}: member -> its key
  KEYS[10] parked keys     parkedkeys{<prefix><topic>_<slot>}
  KEYS[11..] split markers split:<2a>{<prefix><topic>_<slot>}, split:<4a>{...}, ... (optional, see lib/split_depth.lua):
                           the markers of the doublings after which the member would still route to this slot;
                           with ARGV[2] = 'AGING' KEYS[11] is the since hash since{<prefix><topic>_<slot>} (priority
                           aging, lib/aging.lua: the cancelled message's first send time is removed) and the
                           markers follow from KEYS[12]

  ARGV[1]  member          the message content
  ARGV[2]  'AGING'         (optional) KEYS[11] is the since hash

  Returns  { cancelled, inFlight, splits }
           cancelled  1 when the message was pending and is removed, 0 when it was not pending
           inFlight   1 when a copy is in the prepare queue (being consumed: it will still be delivered)
           splits     how many of the split markers exist, one after the other (the caller goes on to the
                      slot the member routes to after that many doublings)
]]
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local deadKey     = KEYS[3]
local attemptsKey = KEYS[4]
local failuresKey = KEYS[5]
local expiryKey   = KEYS[6]
local countersKey = KEYS[7]
local traceKey    = KEYS[8]
local member      = ARGV[1]
local sinceKey, markersFrom = nil, 11
if ARGV[2] == 'AGING' then sinceKey, markersFrom = KEYS[11], 12 end
-- #include lib/split_depth.lua: splitDepth(first)
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
local flow = { keys = KEYS[9], parked = KEYS[10] }

local inFlight = redis.call('ZSCORE', prepareKey, member) and 1 or 0
local cancelled = 0
local parked = parkedCopies(flow, { member })
if redis.call('ZSCORE', storeKey, member) or parked[member] then
  -- a key of the wrong type (written by another client) fails the call before anything is removed
  local dead = redis.call('ZSCORE', deadKey, member)
  redis.call('HEXISTS', attemptsKey, '')
  redis.call('HEXISTS', failuresKey, '')
  redis.call('ZCARD', expiryKey)
  redis.call('HEXISTS', countersKey, '')
  redis.call('HEXISTS', traceKey, '')
  redis.call('ZREM', storeKey, member)
  unparkCopies(flow, parked, { member })
  if inFlight == 0 then redis.call('HDEL', flow.keys, member) end
  redis.call('HDEL', traceKey, member)
  if sinceKey then redis.call('HDEL', sinceKey, member) end
  redis.call('ZREM', expiryKey, member)
  if inFlight == 0 and not dead then
    redis.call('HDEL', attemptsKey, member)
    redis.call('HDEL', failuresKey, member)
  end
  redis.call('HINCRBY', countersKey, 'cancelled', 1)
  cancelled = 1
end
return { cancelled, inFlight, splitDepth(markersFrom) }
