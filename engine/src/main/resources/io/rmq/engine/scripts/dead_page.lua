--[[
  dead_page: one page of a slot's dead queue, oldest death first, with what is known of each death.

  KEYS[1]  dead queue      dead{<prefix><topic>_<slot>}: member -> time of death (ms)
  KEYS[2]  failures hash   failures{<prefix><topic>_<slot>}: member -> "<deliveries>\t<priority>\t<failure>"

  ARGV[1]  offset          rank of the first member of the page (>= 0)
  ARGV[2]  count           most members in the page (> 0)

  Returns  { total, member1, diedAt1, info1, member2, diedAt2, info2, ... }
           total    members of the dead queue
           diedAt   the score: time of death in ms, as a string
           info     the failures hash's value, or '' when none was recorded
]]
local deadKey     = KEYS[1]
local failuresKey = KEYS[2]
local offset      = tonumber(ARGV[1])
local count       = tonumber(ARGV[2])

local result = { redis.call('ZCARD', deadKey) }
local page = redis.call('ZRANGE', deadKey, offset, offset + count - 1, 'WITHSCORES')
for i = 1, #page, 2 do
  result[#result + 1] = page[i]
  result[#result + 1] = page[i + 1]
  result[#result + 1] = redis.call('HGET', failuresKey, page[i]) or ''
end
return result
