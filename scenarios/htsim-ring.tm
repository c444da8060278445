# A ring all-gather over hosts 0-3 of a k = 4 fat tree, in htsim's connection-matrix format:
# each step starts when the previous step's data reached the sender (recv_done_trigger),
# and a last flow waits for a barrier on every third-step flow.
Nodes 16
Connections 13
Triggers 9
0->1 id 1 start 0 size 262144 recv_done_trigger 1
1->2 id 2 start 0 size 262144 recv_done_trigger 2
2->3 id 3 start 0 size 262144 recv_done_trigger 3
3->0 id 4 start 0 size 262144 recv_done_trigger 4
1->2 id 5 trigger 1 size 262144 recv_done_trigger 5
2->3 id 6 trigger 2 size 262144 recv_done_trigger 6
3->0 id 7 trigger 3 size 262144 recv_done_trigger 7
0->1 id 8 trigger 4 size 262144 recv_done_trigger 8
2->3 id 9 trigger 5 size 262144 send_done_trigger 9
3->0 id 10 trigger 6 size 262144 send_done_trigger 9
0->1 id 11 trigger 7 size 262144 send_done_trigger 9
1->2 id 12 trigger 8 size 262144 send_done_trigger 9
15->8 id 13 trigger 9 size 4096
trigger id 1 oneshot
trigger id 2 oneshot
trigger id 3 oneshot
trigger id 4 oneshot
trigger id 5 oneshot
trigger id 6 oneshot
trigger id 7 oneshot
trigger id 8 oneshot
trigger id 9 barrier count 4
