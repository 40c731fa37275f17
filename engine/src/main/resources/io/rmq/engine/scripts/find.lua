--[[
  find: what a slot holds about one message, read in one step: its pending copy's score, its in-flight copy's
  deadline, its failed deliveries so far, its time of death when it is dead, and its expiry when one is recorded.
  Changes nothing. A copy held back by limits per key (parked, see pop_flow.lua) is pending too: its score there is
  reported (one EXISTS of the parked keys when none is parked).

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<slot>}
  KEYS[3]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[4]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[5]  expiry zset     expiry{<prefix><topic>_<slot>}: pending member -> expiresAt (ms since the epoch)
  KEYS[6]  held expiry     held-expiry{<prefix><topic>_<slot>}: member in flight -> the expiry it had when popped
  KEYS[7]  flow keys       flowkey{<prefix><topic>_<slot>}: member -> its key
  KEYS[8]  parked keys     parkedkeys{<prefix><topic>_<slot>}
  KEYS[9..] split markers  as in cancel.lua (optional); with ARGV[2] = 'AGING' KEYS[9] is the since hash
                           since{<prefix><topic>_<slot>} (priority aging, lib/aging.lua) and the markers follow from
                           KEYS[10]

  ARGV[1]  member          the message content
  ARGV[2]  'AGING'         (optional) KEYS[9] is the since hash: its entry for the member is returned

  Returns  { pending, deadline, attempts, deadAt, expiresAt, splits }
           pending    the pending copy's score (due time in ms, or priority) as a string; nil when not pending
           deadline   the in-flight copy's prepare deadline (ms) as a string; nil when none is in flight
           attempts   failed deliveries so far (0 when none is recorded)
           deadAt     when it moved to the dead queue (ms) as a string; nil when it is not dead
           expiresAt  the pending copy's expiry (ms) as a string, else the in-flight copy's; nil when none is recorded
           splits     as in cancel.lua
           since      with 'AGING': the pending copy's first send time (ms) as a string; nil when none is recorded
]]
local member = ARGV[1]
local sinceKey, markersFrom = nil, 9
if ARGV[2] == 'AGING' then sinceKey, markersFrom = KEYS[9], 10 end
-- #include lib/split_depth.lua: splitDepth(first)
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)

local pending   = redis.call('ZSCORE', KEYS[1], member)
if not pending then
  local parked = parkedCopies({ keys = KEYS[7], parked = KEYS[8] }, { member })[member]
  if parked then pending = parked.score end
end
local deadline  = redis.call('ZSCORE', KEYS[2], member)
local deadAt    = redis.call('ZSCORE', KEYS[3], member)
local attempts  = tonumber(redis.call('HGET', KEYS[4], member) or '0') or 0
local expiresAt = redis.call('ZSCORE', KEYS[5], member)
if not expiresAt and deadline then expiresAt = redis.call('HGET', KEYS[6], member) end
local since = nil
if sinceKey and pending then since = redis.call('HGET', sinceKey, member) end
return { pending, deadline, attempts, deadAt, expiresAt, splitDepth(markersFrom), since }
