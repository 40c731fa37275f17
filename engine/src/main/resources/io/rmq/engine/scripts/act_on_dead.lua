--[[
  act_on_dead: requeues, purges or counts a selection of a slot's dead queue, each member atomically.

  Requeue: the member leaves the dead queue for the store queue with a fresh attempt count, due now
  (RANGE_MERGE, FIXED_TIME) or with the priority it had (PRIORITY, from the failures hash; 0 when
  unknown); when a pending copy exists it stands and the dead one merges into it. A wake notice
  "<slot>:0" is published when something was requeued. Purge: the member and what is recorded
  about it are deleted. Count: nothing changes (a dry run).

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  dead queue      dead{<prefix><topic>_<slot>}
  KEYS[3]  attempts hash   attempts{<prefix><topic>_<slot>}
  KEYS[4]  failures hash   failures{<prefix><topic>_<slot>}
  KEYS[5]  counters hash  counters{<prefix><topic>_<slot>}: cumulative counts for operators (optional);
                           field requeued or purged (members that left the dead queue)
  KEYS[6]  since hash      since{<prefix><topic>_<slot>} (optional, priority aging: lib/aging.lua): a purged member
                           without a pending copy loses its first send time (one left by a consumer that did not
                           know of aging)

  ARGV[1]  action          requeue | purge | count
  ARGV[2]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[3]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[4]  slot            the slot number, echoed in the wake notice
  ARGV[5]  limit           most members to act on in this call (> 0), oldest death first
  ARGV[6]  selection       all | members | before | contains
  ARGV[7]  argument        before: time of death in ms (exclusive); contains: the text; otherwise ''
  ARGV[8..] members        selection 'members': the members

  Returns  { acted, merged }
           acted   members requeued, purged or (count) selected, at most `limit`
           merged  of those requeued, how many merged into a pending copy
  Errors   "RMQ_BAD_SELECTION <selection>" (lib/errors.lua) for an unknown selection; nothing changes
]]
local storeKey    = KEYS[1]
local deadKey     = KEYS[2]
local attemptsKey = KEYS[3]
local failuresKey = KEYS[4]
local countersKey = KEYS[5]
local sinceKey    = KEYS[6]
local action      = ARGV[1]
local topicType   = ARGV[2]
local wakeChannel = ARGV[3]
local slot        = ARGV[4]
local limit       = tonumber(ARGV[5])
local selection   = ARGV[6]
local argument    = ARGV[7]
-- #include lib/errors.lua: ERRORS (the error codes) and fail(code, detail)
-- #include lib/clock.lua: redisNow()
-- #include lib/wake.lua: publishWake(channel, slot, delay)

local selected = {}
if selection == 'members' then
  for i = 8, #ARGV do
    if #selected >= limit then break end
    if redis.call('ZSCORE', deadKey, ARGV[i]) then selected[#selected + 1] = ARGV[i] end
  end
elseif selection == 'all' then
  selected = redis.call('ZRANGE', deadKey, 0, limit - 1)
elseif selection == 'before' then
  selected = redis.call('ZRANGEBYSCORE', deadKey, '-inf', '(' .. argument, 'LIMIT', 0, limit)
elseif selection == 'contains' then
  for _, member in ipairs(redis.call('ZRANGE', deadKey, 0, -1)) do
    if #selected >= limit then break end
    if string.find(member, argument, 1, true) then selected[#selected + 1] = member end
  end
else
  return fail(ERRORS.BAD_SELECTION, selection)
end
if action == 'count' then
  return { #selected, 0 }
end

local now = redisNow()
local merged = 0
for _, member in ipairs(selected) do
  local info = redis.call('HGET', failuresKey, member)
  redis.call('ZREM', deadKey, member)
  redis.call('HDEL', attemptsKey, member)
  redis.call('HDEL', failuresKey, member)
  if action == 'purge' and sinceKey and not redis.call('ZSCORE', storeKey, member) then
    redis.call('HDEL', sinceKey, member)
  end
  if action == 'requeue' then
    if redis.call('ZSCORE', storeKey, member) then
      merged = merged + 1
    else
      local score = now
      if topicType == 'PRIORITY' then
        local priority = info and string.match(info, '^[^\t]*\t([^\t]*)\t') or ''
        score = tonumber(priority) or 0
      end
      redis.call('ZADD', storeKey, score, member)
    end
  end
end
if countersKey and #selected > 0 then
  redis.call('HINCRBY', countersKey, action == 'requeue' and 'requeued' or 'purged', #selected)
end
if action == 'requeue' and #selected > merged then
  publishWake(wakeChannel, slot, 0)
end
return { #selected, merged }
